import ContractModel
import NIOCore

/// The `Host` values that name this server, the only ones the admin API and dashboard answer (against DNS rebinding).
///
/// A page on `evil.example` whose name is made to resolve to 127.0.0.1 reaches the server with `Host: evil.example`;
/// refusing names the server does not know stops it. Address literals are accepted when they name this machine:
/// loopback, the bound address, or (bound to every interface) one of the machine's own interface addresses.
struct HostAllowList: Sendable {
    /// The host the server binds, lowercased, without brackets.
    let boundHost: String
    /// Names the user allowed (`--allow-host`), lowercased; `*.example.test` allows every subdomain of `example.test`.
    let allowedNames: [String]
    /// The machine's interface addresses, read once, when bound to every interface (`0.0.0.0` or `::`); empty otherwise.
    let interfaceAddresses: Set<String>

    /// A list for a server bound to `boundHost` that also answers the `allowedNames`.
    init(boundHost: String, allowedNames: [String] = [], interfaceAddresses: Set<String>? = nil) {
        var bound = boundHost.lowercased()
        if bound.hasPrefix("["), bound.hasSuffix("]") { bound = String(bound.dropFirst().dropLast()) }
        self.boundHost = bound
        let wildcard = bound == "0.0.0.0" || bound == "::"
        self.interfaceAddresses = wildcard ? (interfaceAddresses ?? Self.machineAddresses()) : []
        self.allowedNames = allowedNames.map { name in
            let lowered = name.lowercased()
            return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
        }
    }

    /// Whether a `Host` header value names this server; a request without one comes from no browser and passes.
    func allows(hostHeader: String?) -> Bool {
        guard let hostHeader else { return true }
        guard let authority = HostAuthority(hostHeader) else { return false }
        return allows(authority)
    }

    /// Whether the host of an authority names this server: loopback, the bound host, an address of this machine
    /// (bound to every interface) or an allowed name.
    func allows(_ authority: HostAuthority) -> Bool {
        let host = authority.host
        if authority.isLoopback || host == boundHost { return true }
        if let literal = authority.normalizedAddress, interfaceAddresses.contains(literal) { return true }
        return allowedNames.contains { pattern in
            if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst()) }
            return host == pattern
        }
    }

    /// Whether `name` can be given to `--allow-host`: a host name, optionally starting with `*.`, without a port.
    static func isValidPattern(_ name: String) -> Bool {
        let bare = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
        guard let authority = HostAuthority(bare), authority.port == nil else { return false }
        return !bare.contains(":") && !bare.contains("*")
    }

    /// The textual addresses of the machine's network interfaces, as NIO reads them.
    static func machineAddresses() -> Set<String> {
        let devices = (try? System.enumerateDevices()) ?? []
        return Set(devices.compactMap { $0.address?.ipAddress?.lowercased() })
    }
}
