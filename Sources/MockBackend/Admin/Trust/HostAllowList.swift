/// The `Host` values that name this server, the only ones the admin API and dashboard answer (against DNS rebinding).
///
/// A page on `evil.example` whose name is made to resolve to 127.0.0.1 reaches the server with `Host: evil.example`;
/// refusing names the server does not know stops it. Address literals are always accepted: a browser only sends
/// `Host: 1.2.3.4` to the machine at 1.2.3.4, so an address cannot be rebound.
struct HostAllowList: Sendable {
    /// The host the server binds, lowercased, without brackets.
    let boundHost: String
    /// Names the user allowed (`--allow-host`), lowercased; `*.example.test` allows every subdomain of `example.test`.
    let allowedNames: [String]

    /// A list for a server bound to `boundHost` that also answers the `allowedNames`.
    init(boundHost: String, allowedNames: [String] = []) {
        var bound = boundHost.lowercased()
        if bound.hasPrefix("["), bound.hasSuffix("]") { bound = String(bound.dropFirst().dropLast()) }
        self.boundHost = bound
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

    /// Whether the host of an authority names this server: loopback, an address literal, the bound host or an allowed name.
    func allows(_ authority: HostAuthority) -> Bool {
        let host = authority.host
        if authority.isLoopback || authority.isAddressLiteral || host == boundHost { return true }
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
}
