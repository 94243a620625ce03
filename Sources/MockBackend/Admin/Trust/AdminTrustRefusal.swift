import ContractModel
import NIOHTTP1

/// Why the admin API turned a request away before looking at it; each case says what to change.
enum AdminTrustRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The `Host` header names another server (a DNS-rebinding page, or a name the user has not allowed).
    case foreignHost(String)
    /// A CORS preflight: the admin API grants no cross-origin access.
    case preflight(origin: String?)
    /// A write whose `Origin` is not this server.
    case foreignOrigin(String)
    /// A write a browser marked as sent from another site (`Sec-Fetch-Site`).
    case crossSite(String)
    /// A write without `Content-Type: application/json` (what a form or a no-cors fetch sends).
    case notJSON(contentType: String?)
    /// A read a browser marked as asked for by a page on another site (an `<img>`, a script, a fetch).
    case crossSiteRead(String)
    /// An `Origin` or `Sec-Fetch-*` header sent twice, which no browser does.
    case repeatedHeader(String)

    /// The answer's status: 421 for a foreign Host, 415 for the content type, 400 for a repeated header, 403 otherwise.
    var status: HTTPResponseStatus {
        switch self {
        case .foreignHost: return .misdirectedRequest
        case .notJSON: return .unsupportedMediaType
        case .repeatedHeader: return .badRequest
        case .preflight, .foreignOrigin, .crossSite, .crossSiteRead: return .forbidden
        }
    }

    /// A sentence for a person reading the error in a browser console or curl output.
    var description: String {
        switch self {
        case .foreignHost(let host):
            return "The admin API answers only requests whose Host names this server (loopback names and addresses, the bound address); "
                + "Host \"\(host)\" is not one. If you reach the server by that name on purpose, start it with --allow-host \(Self.bareHost(host))."
        case .preflight(let origin):
            return "The admin API grants no cross-origin access\(origin.map { " (preflight from \($0))" } ?? ""); use the dashboard this server serves, or curl."
        case .foreignOrigin(let origin):
            return "Refused a change to the admin API from the web page at \(origin): only this server's own dashboard, or a client without an Origin such as curl, may change the mock's state."
        case .crossSite(let site):
            return "Refused a change to the admin API that the browser marked Sec-Fetch-Site: \(site): only this server's own dashboard may change the mock's state."
        case .notJSON(let type):
            return "Changes to the admin API need Content-Type: application/json (got \(type.map { "\"\($0)\"" } ?? "none")); with curl, add -H 'Content-Type: application/json'."
        case .crossSiteRead(let site):
            return "The admin API does not answer reads the browser marked Sec-Fetch-Site: \(site) (asked for by a page on another site); open the dashboard from its address, or use curl."
        case .repeatedHeader(let name):
            return "The request carries the \(name) header more than once, which no browser sends; send it once."
        }
    }

    /// The sentence for an administrator's act on the app's API (deleting on the main port) that this refusal turned away.
    func adminActDescription(method: String, path: String) -> String {
        let who: String
        switch self {
        case .foreignOrigin(let origin): who = "from the web page at \(origin)"
        case .crossSite(let site): who = "that the browser marked Sec-Fetch-Site: \(site)"
        default: return description
        }
        return "Refused \(method) \(path) \(who): it is an administrator's act (its contract marks the credential \"x-admin\"), "
            + "which only the app, curl and other clients that are not a web page on another site may do. "
            + "To let browser pages do it, as the real backend does, start the mock with --allow-browser-admin."
    }

    /// The host part of a Host header value, for the `--allow-host` hint.
    private static func bareHost(_ value: String) -> String {
        HostAuthority(value)?.host ?? value
    }
}
