import ContractModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// Decides whether a host to bind is loopback from the addresses it resolves to, never from how its name reads.
///
/// `127.nonexistent.invalid` reads like loopback but resolves nowhere; `localhost` reads like a name but resolves to
/// loopback. A host is loopback only when it resolves and every address it resolves to is loopback, because the
/// server binds one of them and the admin API's trust (no token needed) rests on nothing else reaching it.
enum LoopbackResolver {
    /// Whether every address `host` resolves to is loopback; throws when it resolves to none.
    static func isLoopback(host: String) throws(HostResolutionError) -> Bool {
        let addresses = try resolve(host)
        return addresses.allSatisfy(isLoopback)
    }

    /// Whether one address is in 127.0.0.0/8, is `::1`, or is an IPv4-mapped loopback address.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return false }
        switch address.protocol {
        case .inet:
            return ip.hasPrefix("127.")
        case .inet6:
            return ip == "::1" || ip.hasPrefix("::ffff:127.")
        default:
            return false
        }
    }

    /// Every address `host` resolves to (brackets around an IPv6 literal allowed); throws when there are none.
    static func resolve(_ host: String) throws(HostResolutionError) -> [SocketAddress] {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let literal = try? SocketAddress(ipAddress: name, port: 0) { return [literal] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == 0 ? "no addresses" : String(cString: gai_strerror(status))
            throw HostResolutionError(host: host, reason: reason)
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            if let sockaddr = info.pointee.ai_addr {
                switch Int32(info.pointee.ai_family) {
                case AF_INET:
                    let v4 = UnsafeRawPointer(sockaddr).load(as: sockaddr_in.self)
                    addresses.append(SocketAddress(v4, host: name))
                case AF_INET6:
                    let v6 = UnsafeRawPointer(sockaddr).load(as: sockaddr_in6.self)
                    addresses.append(SocketAddress(v6, host: name))
                default:
                    break
                }
            }
            next = info.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw HostResolutionError(host: host, reason: "no IPv4 or IPv6 addresses") }
        return addresses
    }
}
