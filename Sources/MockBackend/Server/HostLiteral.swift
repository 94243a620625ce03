import ContractModel
/// Host names as sockets take them: URLs write an IPv6 literal in brackets (`[::1]`), `bind` and `connect` want it bare.
/// Foundation on Linux keeps the brackets in `URLComponents.host`, so every URL-derived host goes through here.
enum HostLiteral {
    /// `host` without the brackets of an IPv6 literal; any other host unchanged.
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 ? String(host.dropFirst().dropLast()) : host
    }

    /// `host` as a URL or `Host` header writes it: an IPv6 literal in brackets, whichever form it came in.
    static func bracketed(_ host: String) -> String {
        let bare = unbracketed(host)
        return bare.contains(":") ? "[\(bare)]" : bare
    }
}
