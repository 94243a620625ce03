import ContractKit
import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// The admin API under `/__spotcheck/`: journal, reset, health and the live fault rules.
struct AdminAPI: Sendable {
    /// Every admin path starts with this.
    static let prefix = "/__spotcheck/"
    /// Admin requests carry at most a rules file; 1 MiB is plenty.
    static let bodyLimit = 1024 * 1024
    /// The header carrying the admin token.
    static let tokenHeader = "x-spotcheck-admin-token"

    let journal: Journal
    let faults: FaultLayer
    let hooks: (any AdminHooks)?
    let token: String?
    let loopback: Bool
    var observer: (any ExchangeObserver)? = nil
    var shutdownRequest: ShutdownRequest? = nil
    /// The Host, Origin and content-type checks made before anything else (see docs/security.md).
    var trust = AdminRequestTrust(hosts: HostAllowList(boundHost: "127.0.0.1"), ports: { [] })
    /// The main port once bound, so the dashboard opened on the admin port can address the app's API (copy as curl).
    var mainPort: @Sendable () -> Int? = { nil }
    /// What `journal.har` redacts; nil keeps every secret.
    var harSecrets: SecretNames? = SecretNames()
    /// The contract ids the fault catalogue offers (the loaded contract set's).
    var faultContracts: [String] = []

    /// The refusal for a request the admin token rules turn away, nil when it may proceed.
    func refusal(_ request: MockRequest) -> MockResponse? {
        // Before the asset exception: the page itself must not be served to a rebound name either.
        if let refused = trust.refusal(request) { return AdminAPI.error(refused.status, refused.description) }
        // The dashboard's static files hold no data, and a browser cannot send the token header when loading them.
        if request.method == .GET, DashboardAssets.isAsset(path: request.path) { return nil }
        if let token {
            // Browsers cannot add headers to a page load or an EventSource, so the dashboard may pass the token as `?token=`.
            let sent = request.headers.first(name: AdminAPI.tokenHeader) ?? AdminQuery(request.query)["token"]
            guard let sent, constantTimeEqual(sent, token) else {
                return AdminAPI.error(.unauthorized, "The admin API needs the \(AdminAPI.tokenHeader) header (or ?token=) with the server's admin token.")
            }
        } else if !loopback {
            return AdminAPI.error(.forbidden, "The admin API is off because the server listens beyond loopback without an admin token; start it with --admin-token.")
        }
        return nil
    }

    /// Answers an admin request, refusals included, with the headers that keep other pages from framing or sniffing it.
    func handle(_ request: MockRequest) async -> MockResponse {
        var response = await routed(request)
        AdminSecurityHeaders.apply(to: &response.headers)
        return response
    }

    private func routed(_ request: MockRequest) async -> MockResponse {
        if let refused = refusal(request) { return refused }
        let route = String(request.path.dropFirst(AdminAPI.prefix.count))
        if let answer = exchangeRoute(route, request) { return answer }
        if let answer = harRoute(route, request) { return answer }
        switch (route, request.method) {
        case ("health", .GET):
            var health: JSONObject = ["status": "ok", "rules": .number(Double(faults.rules.count)),
                                      "journalEntries": .number(Double(journal.entries().count))]
            health["mainPort"] = mainPort().map { .number(Double($0)) } ?? .null
            return AdminAPI.json(.ok, .object(health))
        case ("journal", .GET):
            let page = JournalPage.encode(journal, JournalPageRequest(query: request.query))
            return MockResponse(status: .ok, headers: ["content-type": "application/json"], body: page)
        case ("journal", .DELETE):
            journal.clear()
            return MockResponse(status: .noContent)
        case ("reset", .POST):
            await hooks?.reset()
            observer?.backendForgot(ids: nil)
            journal.clear()
            faults.resetCounters()
            return MockResponse(status: .noContent)
        case ("faults", .GET):
            return AdminAPI.json(.ok, FaultRule.json(faults.rules))
        case ("faults", .PUT):
            let data = Data(request.body.readableBytesView)
            let value: JSONValue
            do {
                value = try JSONValue(parsing: data)
            } catch {
                return AdminAPI.error(.badRequest, "The body is not valid JSON: \(error.description).")
            }
            do {
                let rules = try FaultRule.parseRules(value, file: "PUT \(AdminAPI.prefix)faults")
                faults.replaceRules(rules)
                return AdminAPI.json(.ok, FaultRule.json(rules))
            } catch {
                return AdminAPI.error(.badRequest, error.description, pointer: error.pointer)
            }
        case ("faults", .DELETE):
            faults.replaceRules([])
            return MockResponse(status: .noContent)
        case ("faults/reset-counters", .POST):
            faults.resetCounters()
            return MockResponse(status: .noContent)
        case ("health", _), ("journal", _), ("reset", _), ("faults", _), ("faults/reset-counters", _):
            let allowed = ["health": "GET", "journal": "GET, DELETE", "reset": "POST", "faults": "GET, PUT, DELETE",
                           "faults/reset-counters": "POST"][route] ?? ""
            var response = AdminAPI.error(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path); use \(allowed).")
            response.headers.add(name: "allow", value: allowed)
            return response
        default:
            return await handleMore(request, route: route)
        }
    }

    static func notFound(_ path: String) -> MockResponse {
        var response = error(.notFound, "Nothing here: \(path). The admin API has health, journal, events, reset, faults and state under \(prefix); the dashboard is \(prefix).")
        AdminSecurityHeaders.apply(to: &response.headers)
        return response
    }

    static func tooLarge() -> MockResponse {
        var response = error(.payloadTooLarge, "Admin requests are limited to \(bodyLimit) bytes.")
        AdminSecurityHeaders.apply(to: &response.headers)
        return response
    }

    static func json(_ status: HTTPResponseStatus, _ value: JSONValue) -> MockResponse {
        var body = ByteBuffer()
        body.writeString(value.serialized())
        return MockResponse(status: status, headers: ["content-type": "application/json"], body: body)
    }

    static func error(_ status: HTTPResponseStatus, _ message: String, pointer: String? = nil) -> MockResponse {
        var detail = JSONObject()
        detail["message"] = .string(message)
        if let pointer { detail["pointer"] = .string(pointer) }
        return json(status, .object(["error": .object(detail)]))
    }

    /// Compares without an early exit so response timing does not leak how much of the token matched.
    private func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return diff == 0
    }
}
