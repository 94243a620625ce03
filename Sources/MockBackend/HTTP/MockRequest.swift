import ContractKit
import ContractModel
import NIOCore
import NIOHTTP1

/// One fully read HTTP request, as the server hands it to a responder.
public struct MockRequest: Sendable {
    /// The request method, e.g. `POST`.
    public var method: HTTPMethod {
        didSet { route = nil }
    }
    /// The raw request target as sent, e.g. `/api/v1/items?lat=1`.
    public var uri: String {
        // Path and query are read several times per request (route, faults, journal), so they are split once.
        didSet {
            (path, query) = Self.split(uri)
            route = nil
        }
    }
    /// The route the server matched for this method and path, when it routes with a contract route table; a new method
    /// or URI drops it.
    ///
    /// The body limit, the journal, the fault selectors and the backend each needed the route: matching once and
    /// carrying the match saves three matches per request.
    public internal(set) var route: RequestRoute?
    /// The request headers as sent.
    public var headers: HTTPHeaders
    /// The body bytes (empty when there was none).
    public var body: ByteBuffer
    /// The address of the peer, for the journal and logs.
    public var remoteAddress: String?
    /// The path part of the URI, without the query string.
    public private(set) var path: String
    /// The query string after `?`, if any.
    public private(set) var query: String?

    public init(method: HTTPMethod, uri: String, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer(), remoteAddress: String? = nil) {
        self.method = method.wireNamed
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        (path, query) = Self.split(uri)
    }

    /// The request as the model reads it: the same method, target, headers, body and route.
    public var modelRequest: ModelRequest {
        ModelRequest(method: method.rawValue, uri: uri, headers: HeaderFields(headers.map { (name: $0.name, value: $0.value) }),
                     body: Array(body.readableBytesView), route: route)
    }

    private static func split(_ uri: String) -> (path: String, query: String?) {
        guard let q = uri.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (uri, nil) }
        return (String(uri[..<q]), String(uri[uri.index(after: q)...]))
    }
}
