import ContractModel
import Foundation
import NIOHTTP1

/// The checks every admin request passes before the token and the routes, so a web page in the user's browser cannot
/// drive the mock: the `Host` names this server, and a change comes from this server's own page or from a client
/// that is no browser (curl, scripts), in a form a browser cannot send cross-site without a preflight.
///
/// Browsers mark every cross-origin write with `Origin` and (since 2020–2023) `Sec-Fetch-Site`, and cannot send
/// `Content-Type: application/json` to another origin without a CORS preflight, which the admin API never grants.
struct AdminRequestTrust: Sendable {
    /// The Host values that name this server.
    let hosts: HostAllowList
    /// The ports this server listens on (main and admin); read per request, since port 0 is known only after binding.
    let ports: @Sendable () -> [Int]

    /// Why the request is turned away, nil when it may go on to the token check and the routes.
    func refusal(_ request: MockRequest) -> AdminTrustRefusal? {
        let hostHeaders = request.headers["host"]
        // Two Host headers could name this server to one check and another server to the next.
        guard hostHeaders.count <= 1, hosts.allows(hostHeader: hostHeaders.first) else {
            return .foreignHost(hostHeaders.joined(separator: ", "))
        }
        if let repeated = Self.repeatedBrowserHeader(request.headers) { return .repeatedHeader(repeated) }
        let origin = request.headers.first(name: "origin")
        if request.method == .OPTIONS { return .preflight(origin: origin) }
        let site = request.headers.first(name: "sec-fetch-site")
        guard Self.changesState(request.method) else {
            // A page on another site can make the browser fetch any URL (an <img>, a link): the server would pay for
            // the answer even though the page cannot read it. Only opening the dashboard page itself from a link is let through.
            if let site, !["same-origin", "same-site", "none"].contains(site.lowercased()), !Self.isDashboardNavigation(request) {
                return .crossSiteRead(site)
            }
            return nil
        }
        if let refused = browserRefusal(request) { return refused }
        let type = request.headers.first(name: "content-type")
        let declaredBody = request.headers.first(name: "content-length").flatMap(Int.init).map { $0 > 0 } ?? false
        let hasBody = request.body.readableBytes > 0 || declaredBody || request.headers.contains(name: "transfer-encoding")
        // Writes without a body from curl carry no type; from a browser, or with a body, only JSON is taken.
        let fromBrowser = origin != nil || site != nil
        if type != nil || hasBody || fromBrowser, !Self.isJSON(type) { return .notJSON(contentType: type) }
        return nil
    }

    /// Why a request a browser sent from another origin or site is turned away (a foreign `Origin`, `Sec-Fetch-Site`
    /// cross-site or same-site, or either header repeated), nil when it comes from this server's own page or from no browser.
    ///
    /// The admin API's writes and the app API's administrator acts on the main port (deleting) both ask this.
    func browserRefusal(_ request: MockRequest) -> AdminTrustRefusal? {
        if let repeated = Self.repeatedBrowserHeader(request.headers) { return .repeatedHeader(repeated) }
        if let origin = request.headers.first(name: "origin"), !names(origin: origin, host: request.headers.first(name: "host")) {
            return .foreignOrigin(origin)
        }
        if let site = request.headers.first(name: "sec-fetch-site"), !["same-origin", "none"].contains(site.lowercased()) {
            return .crossSite(site)
        }
        return nil
    }

    /// The name of an `Origin` or `Sec-Fetch-*` header sent more than once, nil when each came at most once.
    ///
    /// Two copies could name this server to one check and another page to the next (the first wins in `first(name:)`);
    /// a browser never repeats them, so a request that does is refused like one with two `Host` headers.
    static func repeatedBrowserHeader(_ headers: HTTPHeaders) -> String? {
        var seen = Set<String>()
        for (name, _) in headers {
            let lowered = name.lowercased()
            guard lowered == "origin" || lowered.hasPrefix("sec-fetch-") else { continue }
            if !seen.insert(lowered).inserted { return name }
        }
        return nil
    }

    /// Whether a read is the browser opening the dashboard page as a top-level document (a link on another site):
    /// the page holds no data, and its own requests are same-origin.
    static func isDashboardNavigation(_ request: MockRequest) -> Bool {
        let mode = request.headers.first(name: "sec-fetch-mode")?.lowercased()
        let destination = request.headers.first(name: "sec-fetch-dest")?.lowercased()
        let page = request.path == AdminAPI.prefix || request.path == AdminAPI.prefix + "index.html"
        return page && mode == "navigate" && destination == "document"
    }

    /// Whether a method can change state; only GET and HEAD are reads in the admin API.
    static func changesState(_ method: HTTPMethod) -> Bool {
        method != .GET && method != .HEAD
    }

    /// Whether a Content-Type names `application/json` (parameters such as charset allowed).
    static func isJSON(_ type: String?) -> Bool {
        guard let type else { return false }
        let media = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// Whether an `Origin` is this server: the same authority the request was sent to, or an allowed host on one of its ports.
    func names(origin: String, host: String?) -> Bool {
        let lowered = origin.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") { scheme = "http" } else if lowered.hasPrefix("https://") { scheme = "https" } else { return false }
        // `null` (sandboxed frames, file: pages) and anything with a path fail here.
        guard let authority = HostAuthority(String(lowered.dropFirst(scheme.count + 3))) else { return false }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = authority.port ?? defaultPort
        if let host, let target = HostAuthority(host), target.host == authority.host, (target.port ?? defaultPort) == port {
            return hosts.allows(authority)
        }
        let own = ports()
        return hosts.allows(authority) && own.contains(port)
    }
}
