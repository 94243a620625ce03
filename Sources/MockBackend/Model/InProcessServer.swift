import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// The model answering as `serve` would over HTTP/1.1, with no socket: the body limit and its refusal, the framing
/// headers, and (when asked) the model's assumptions as `x-spotcheck-assumption` lines.
///
/// verify's oracle and exploration ask the model through this instead of a listening mock: a request costs a function
/// call, not a connection, and the answer is byte for byte what `ExactHTTPClient` would read from `serve` with no faults
/// (the browser rules on administrator acts aside: no generated request is a browser's act on an admin contract).
public struct InProcessServer: Sendable {
    /// The model behind it.
    public let backend: ModelBackend
    /// Whether answers carry what the model assumed.
    public let sendsAssumptions: Bool
    /// The `Host` the requests name (the model never reads it; a real client always sends one).
    static let host = "127.0.0.1"

    /// A face of `backend`; `sendsAssumptions` adds the assumption lines as `ServerConfiguration.sendsAssumptions` does.
    public init(backend: ModelBackend, sendsAssumptions: Bool) {
        self.backend = backend
        self.sendsAssumptions = sendsAssumptions
    }

    /// The whole answer to `method url` with `fields` and `body`, as `ExactHTTPClient.send` would receive it from `serve`
    /// (only the URL's path and query are read).
    public func send(method: String, url: URL, headers fields: [String: String], body: Data) async -> ExactHTTPClient.Answer {
        let target = URLComponents(url: url, resolvingAgainstBaseURL: false).map(ExactHTTPClient.requestTarget) ?? "/"
        let headers = ExactHTTPClient.requestHeaders(host: Self.host, fields: fields, method: method, bodyCount: body.count)
        let request = MockRequest(method: HTTPMethod(rawValue: method), uri: target, headers: headers, body: ByteBuffer(bytes: body))
        // Over its limit a body is refused unread and the connection ends, as the server's connection machine does.
        let oversized = body.count > backend.bodyLimit(for: request)
        let response: MockResponse
        if oversized {
            response = await backend.respondToOversizedBody(request)
        } else if let immediate = backend.immediateResponse(to: request) {
            response = immediate
        } else {
            response = await backend.respond(to: request)
        }
        var wire = WireHead.framed(response.headers, method: request.method, status: response.status, keepAlive: !oversized,
                                   contentLength: response.body.readableBytes)
        if sendsAssumptions, !response.assumptions.isEmpty { AssumptionHeader.add(response.assumptions, to: &wire) }
        // NIO's response encoder frames a head without a length as chunked unless its status forbids a body: a HEAD
        // answer of `serve` carries `transfer-encoding: chunked`, so this face's does too.
        if !wire.contains(name: "content-length"), !(100..<200).contains(response.status.code), response.status != .noContent,
           response.status != .notModified {
            wire.add(name: "transfer-encoding", value: "chunked")
        }
        return ExactHTTPClient.Answer(status: Int(response.status.code), headers: wire.map { (name: $0.name, value: $0.value) },
                                      body: Data(response.body.readableBytesView))
    }
}
