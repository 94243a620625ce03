import Foundation

/// One answer an endpoint may give.
public struct ResponseSpec: Sendable {
    /// The HTTP status, e.g. 201.
    public let status: Int
    /// The error code in the error envelope, as the contract documents it; nil for successes.
    public let code: String?
    /// The condition under which the server answers this, as a sentence.
    public let when: String
    /// The body's media type; nil when there is no body.
    public let contentType: String?
    /// Headers the answer carries, in file order.
    public let headers: [ParameterSpec]
    /// JSON Schema of the body; nil when there is no body.
    public let body: JSONValue?
    /// Named example answers, each valid against `body` and `headers`.
    public let examples: [ContractExample]

    /// "201" or "400" and the error code: how people and the diff name this answer.
    public var label: String { code.map { "\(status) \($0)" } ?? String(status) }
}

/// A named example: a body (and headers), optionally with the request that produces it.
public struct ContractExample: Sendable {
    /// Unique within its list, e.g. "species missing".
    public let name: String
    /// Free text for people.
    public let summary: String?
    /// The example body, if any.
    public let body: JSONValue?
    /// Example header values by name.
    public let headers: [String: String]
    /// A request that makes the server give this answer (response examples only).
    public let request: ExampleRequest?
}

/// A concrete request used by an example: what to send to trigger a documented answer.
public struct ExampleRequest: Sendable {
    /// A JSON body to send.
    public let body: JSONValue?
    /// A body sent byte for byte (e.g. a non-JSON body), instead of `body`.
    public let rawBody: String?
    /// Headers to send (e.g. a wrong Content-Type or Authorization).
    public let headers: [String: String]
    /// Query parameters to send.
    public let query: [String: String]
    /// Path parameter values to use.
    public let pathParameters: [String: String]
    /// Multipart parts to send instead of the contract's file part: part name → `file` (a small PNG) or `text`.
    public var parts: [String: String] = [:]
}
