import ContractKit
import ContractModel
import NIOCore
import NIOHTTP1

/// A complete HTTP response produced by a responder, before any fault transforms it.
public struct MockResponse: Sendable {
    /// The status code.
    public var status: HTTPResponseStatus
    /// The response headers; the server adds `content-length` and connection headers itself.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: ByteBuffer
    /// Express's weak ETag of `body`, when the responder already knows it (a stored record's JSON).
    var etag: String?
    /// The request's JSON body as the responder parsed it, whole: the exchange check reads it instead of parsing again.
    var parsedRequestBody: JSONValue?
    /// What the model assumed where the contracts state nothing, for a person (empty: every rule that decided this answer
    /// is stated). A server that differs from an answer with assumptions gets a note, not a failure (design.md, "Verdicts").
    public var assumptions: [String] = []

    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The model's answer as the server sends it.
    public init(_ answer: ModelAnswer) {
        self.init(status: HTTPResponseStatus(statusCode: answer.status.code),
                  headers: HTTPHeaders(answer.headers.fields.map { ($0.name, $0.value) }), body: ByteBuffer(bytes: answer.body))
        etag = answer.etag
        parsedRequestBody = answer.parsedRequestBody
        assumptions = answer.assumptions
    }

    /// The answer as the model's own value, for the model's checks of an answer a server sent.
    public var modelAnswer: ModelAnswer {
        var answer = ModelAnswer(status: HTTPStatus(statusCode: Int(status.code)),
                                 headers: HeaderFields(headers.map { (name: $0.name, value: $0.value) }), body: Array(body.readableBytesView))
        answer.etag = etag
        answer.parsedRequestBody = parsedRequestBody
        answer.assumptions = assumptions
        return answer
    }
}
