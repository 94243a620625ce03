import ContractModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-shot HTTP/1.1 client for harness code that must send exactly the request it built: no added headers, no
/// retries, no upload throttling (FoundationNetworking needs about 20 s to send a 20 MiB body), on the proxy's NIO client.
public struct ExactHTTPClient: Sendable {
    /// An answer as received.
    public struct Answer: Sendable {
        /// The status code.
        public let status: Int
        /// The headers, in order.
        public let headers: [(name: String, value: String)]
        /// The body bytes.
        public let body: Data

        /// An answer with these parts.
        public init(status: Int, headers: [(name: String, value: String)], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// How long to wait for connecting and for the whole answer.
    public let timeout: Duration

    /// A client that gives up after `timeout`.
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Sends `method url` with exactly these headers and body (plain http only) and returns the whole answer; throws
    /// `ProxyError` when there is none. `Host` and, for a body or a POST/PUT/PATCH, `Content-Length` are set here.
    public func send(method: String, url: URL, headers fields: [String: String], body: Data) async throws(ProxyError) -> Answer {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.scheme == "http", let host = components.host, !host.isEmpty
        else {
            throw .unsupportedTarget(url.absoluteString, reason: "only http:// URLs with a host can be sent")
        }
        let port = components.port ?? 80
        let hostHeader = components.port == nil ? HostLiteral.bracketed(host) : "\(HostLiteral.bracketed(host)):\(port)"
        let headers = Self.requestHeaders(host: hostHeader, fields: fields, method: method, bodyCount: body.count)
        let path = Self.requestTarget(components)
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path, headers: headers)
        let client = UpstreamClient(host: HostLiteral.unbracketed(host), port: port, group: MultiThreadedEventLoopGroup.singleton, timeout: timeout.timeAmount,
                                    maxResponseBytes: 64 * 1024 * 1024, targetDescription: url.absoluteString)
        let response = try await client.send(head: head, body: ByteBuffer(bytes: body))
        return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                      body: Data(response.body.readableBytesView))
    }

    /// The headers `send` puts on the wire: `Host`, the fields in name order, and `Content-Length` for a body or a
    /// POST/PUT/PATCH. The in-process face sends the same, so the model reads what a server would.
    static func requestHeaders(host: String, fields: [String: String], method: String, bodyCount: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        if bodyCount > 0 || ["POST", "PUT", "PATCH"].contains(method) {
            headers.replaceOrAdd(name: "Content-Length", value: String(bodyCount))
        }
        return headers
    }

    /// The request target of a URL as it goes on the wire: its percent-encoded path (`/` when empty) and query.
    static func requestTarget(_ components: URLComponents) -> String {
        (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
