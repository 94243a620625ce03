import ContractModel
import Foundation
import NIOCore

/// A host and optional port as a `Host` header or an `Origin` writes them: `localhost:3000`, `[::1]:80`, `example.test`.
struct HostAuthority: Sendable, Equatable {
    /// The host, lowercased, without IPv6 brackets or a trailing dot.
    let host: String
    /// The port, when one was written.
    let port: Int?

    /// Parses `host[:port]`; nil for anything a browser would never send (a bare IPv6 address, an empty host, a bad port).
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var host: Substring
        var rest: Substring
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return nil }
            host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            rest = trimmed[trimmed.index(after: close)...]
        } else if let colon = trimmed.firstIndex(of: ":") {
            host = trimmed[..<colon]
            rest = trimmed[colon...]
            // A second colon means an unbracketed IPv6 address, which no browser sends.
            if rest.dropFirst().contains(":") { return nil }
        } else {
            host = Substring(trimmed)
            rest = ""
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else { return nil }
        if rest.isEmpty {
            port = nil
        } else {
            guard rest.first == ":", let value = Int(rest.dropFirst()), (0...65535).contains(value) else { return nil }
            port = value
        }
        self.host = String(host)
    }

    /// The host as NIO writes an IP address (so `::0001` and `::1` compare equal), or nil for a name.
    var normalizedAddress: String? {
        (try? SocketAddress(ipAddress: host, port: 0))?.ipAddress?.lowercased()
    }

    /// Whether the host is a loopback name (`localhost`, `*.localhost`, which browsers resolve to loopback themselves) or address.
    var isLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        guard let address = try? SocketAddress(ipAddress: host, port: 0) else { return false }
        return LoopbackResolver.isLoopback(address)
    }
}
