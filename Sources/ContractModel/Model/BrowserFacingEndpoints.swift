import ContractKit

/// What the contracts let a web page call on the main port: every endpoint except those whose credential is an
/// administrator's (`"x-admin": true` in `request.auth`), and the CORS preflight grant those endpoints need.
///
/// The real backend's `cors()` grants every method and reflects every requested header, so any page could delete with
/// the public default token; the grant here is read from the contracts instead, so it follows them when they change.
public struct BrowserFacingEndpoints: Sendable, Equatable {
    /// The ids of the contracts whose credential is an administrator's: deleting, on either mount.
    public let adminContractIDs: Set<String>
    /// The methods a preflight grants: those of the browser-facing endpoints (HEAD wherever GET is), in a stable order.
    public let methods: [String]
    /// The request headers a preflight grants: `Content-Type` when a browser-facing endpoint takes a body, and the
    /// auth and documented headers of the browser-facing endpoints.
    public let headers: [String]

    /// The endpoints and grant the contracts describe.
    public init(contracts: ContractSet) {
        var admin = Set<String>()
        var methods: [String] = []
        var headers: [String] = []
        func add(_ header: String) {
            if !headers.contains(where: { $0.lowercased() == header.lowercased() }) { headers.append(header) }
        }
        for contract in contracts.contracts {
            if contract.request.auth?.isAdmin == true {
                admin.insert(contract.id)
                continue
            }
            let method = contract.method.uppercased()
            for granted in method == "GET" ? ["GET", "HEAD"] : [method] where !methods.contains(granted) { methods.append(granted) }
            if contract.request.contentType != nil { add("Content-Type") }
            if let auth = contract.request.auth { add(auth.header) }
            for header in contract.request.headers { add(header.name) }
        }
        self.adminContractIDs = admin
        self.methods = methods.sorted()
        self.headers = headers.sorted()
    }

    /// Whether the contract `id` is an administrator's act.
    public func isAdmin(contract id: String?) -> Bool {
        id.map(adminContractIDs.contains) ?? false
    }
}
