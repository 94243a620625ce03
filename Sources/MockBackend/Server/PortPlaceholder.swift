import ContractModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bound socket that never listens: while a `refuse` fault keeps the server offline it holds the port, so a connect is
/// still refused (the kernel answers RST) but no other server on the machine can take the port in the meantime.
///
/// Without it, a test or tool binding port 0 could be handed the freed port and answer in the mock's place.
enum PortPlaceholder {
    /// Binds `host:port` without listening and returns the socket; nil when the host is not a numeric address or the
    /// bind fails (best effort: the port is then merely closed, as before).
    static func hold(host: String, port: Int) -> Int32? {
        let isIPv6 = host.contains(":")
        let family = isIPv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: Bool
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            let trimmed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            guard inet_pton(AF_INET6, trimmed, &address.sin6_addr) == 1 else { close(fd); return nil }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let numeric = host == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, numeric, &address.sin_addr) == 1 else { close(fd); return nil }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
        guard bound else { close(fd); return nil }
        return fd
    }

    /// Lets the port go, just before the server listens on it again (or shuts down).
    static func release(_ descriptor: Int32) {
        close(descriptor)
    }
}
