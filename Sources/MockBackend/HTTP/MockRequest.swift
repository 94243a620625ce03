import NIOCore
import NIOHTTP1

/// One fully read HTTP request, as the server hands it to a responder.
public struct MockRequest: Sendable {
    /// The request method, e.g. `POST`.
    public var method: HTTPMethod
    /// The raw request target as sent, e.g. `/api/v1/announcements?lat=1`.
    public var uri: String
    /// The request headers as sent.
    public var headers: HTTPHeaders
    /// The body bytes (empty when there was none).
    public var body: ByteBuffer
    /// The address of the peer, for the journal and logs.
    public var remoteAddress: String?

    public init(method: HTTPMethod, uri: String, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer(), remoteAddress: String? = nil) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path part of the URI, without the query string.
    public var path: String {
        if let q = uri.firstIndex(of: "?") { return String(uri[..<q]) }
        return uri
    }

    /// The query string after `?`, if any.
    public var query: String? {
        guard let q = uri.firstIndex(of: "?") else { return nil }
        return String(uri[uri.index(after: q)...])
    }
}
