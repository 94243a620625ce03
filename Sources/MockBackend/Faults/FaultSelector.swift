import ContractModel
/// Which requests a rule looks at: a contract id and/or a method and path pattern; empty matches every request.
public struct FaultSelector: Sendable, Hashable {
    /// The contract id, e.g. `getItem`.
    public var contract: String?
    /// The method, upper-cased, e.g. `POST`.
    public var method: String?
    /// The path pattern, e.g. `/api/v1/items/{id}/files`.
    public var path: PathPattern?

    /// Creates a selector; a nil part matches anything.
    public init(contract: String? = nil, method: String? = nil, path: String? = nil) {
        self.contract = contract
        self.method = method?.uppercased()
        self.path = path.map(PathPattern.init)
    }

    /// Whether the selector matches every request.
    public var isEmpty: Bool { contract == nil && method == nil && path == nil }

    /// Whether a request with this method, path and matched contract id is selected.
    public func matches(method: String, path: String, contract: String?) -> Bool {
        if let c = self.contract, c != contract { return false }
        if let m = self.method, m != method.uppercased() { return false }
        if let p = self.path, !p.matches(path) { return false }
        return true
    }
}
