import ContractKit

/// One whole HTTP request as the model reads it: a value, whoever received it (the NIO server, verify's oracle, a test).
public struct ModelRequest: Sendable {
    /// The method as sent, e.g. `POST`.
    public var method: String {
        didSet { route = nil }
    }
    /// The request target as sent, e.g. `/api/v1/items?lat=1`.
    public var uri: String {
        didSet {
            (path, query) = Self.split(uri)
            route = nil
        }
    }
    /// The route a face already matched with the model's own route table; a new method or URI drops it.
    public var route: RequestRoute?
    /// The request headers as sent.
    public var headers: HeaderFields
    /// The body bytes (empty when there was none).
    public var body: [UInt8]
    /// The path part of the URI, without the query string.
    public private(set) var path: String
    /// The query string after `?`, if any.
    public private(set) var query: String?

    /// A request; `uri` is split into path and query once.
    public init(method: String, uri: String, headers: HeaderFields = [:], body: [UInt8] = [], route: RequestRoute? = nil) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        (path, query) = Self.split(uri)
        self.route = route
    }

    private static func split(_ uri: String) -> (path: String, query: String?) {
        guard let q = uri.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (uri, nil) }
        return (String(uri[..<q]), String(uri[uri.index(after: q)...]))
    }
}

/// A route table's match for a request, with the table it came from.
public struct RequestRoute: Sendable {
    /// The `RouteTable.identity` of the table that matched.
    public let table: ObjectIdentifier
    /// What it matched.
    public let match: RouteMatch

    /// A match made by the table with `table` as its identity.
    public init(table: ObjectIdentifier, match: RouteMatch) {
        self.table = table
        self.match = match
    }

    /// The match of `table` for a request, if it came from that very table (nil: route it yourself).
    public func matched(by table: RouteTable) -> RouteMatch? {
        self.table == table.identity ? match : nil
    }
}
