import Foundation

/// What the route table makes of a request's method and path.
public enum RouteMatch: Sendable, Equatable {
    /// A contract's endpoint: the route (an index into `RouteTable.routes`) and the decoded path parameters.
    case endpoint(route: Int, contractID: String, parameters: [String: String])
    /// A CORS preflight (`OPTIONS` while the service file enables preflights).
    case preflight
    /// No route has this path and method: the service file's not-found answer.
    case notFound
    /// A route's path matches but one of its parameters cannot be percent-decoded: the service file's answer for that.
    case undecodableParameter

    /// The id of the contract documenting the endpoint; nil for preflights, misses and undecodable parameters.
    public var contractID: String? {
        if case .endpoint(_, let id, _) = self { return id }
        return nil
    }
}
