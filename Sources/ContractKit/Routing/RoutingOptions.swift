import Foundation

/// How request paths are matched to contract path templates (`service.json` `routing`).
public struct RoutingOptions: Sendable, Equatable {
    /// Literal segments match whatever their ASCII case (Express); parameters keep their case.
    public var caseInsensitive = false
    /// One trailing slash is ignored (`/a/` is `/a`).
    public var trailingSlash = false
    /// A HEAD is answered by the GET endpoint of its path (without the body).
    public var headAsGet = false

    /// Strict matching: exact case, no trailing slash, HEAD only where a contract says HEAD.
    public init(caseInsensitive: Bool = false, trailingSlash: Bool = false, headAsGet: Bool = false) {
        self.caseInsensitive = caseInsensitive
        self.trailingSlash = trailingSlash
        self.headAsGet = headAsGet
    }
}
