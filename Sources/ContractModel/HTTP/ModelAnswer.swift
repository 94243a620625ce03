import ContractKit

/// The model's whole answer to one request, before any face sends it (and before any fault transforms it).
public struct ModelAnswer: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// The answer's headers; a face adds `content-length` and connection headers itself.
    public var headers: HeaderFields
    /// The body bytes.
    public var body: [UInt8]
    /// Express's weak ETag of `body`, when the model already knows it (a stored record's JSON).
    public var etag: String?
    /// The request's JSON body as the model parsed it, whole: the exchange check reads it instead of parsing again.
    public var parsedRequestBody: JSONValue?
    /// What the model assumed where the contracts state nothing, for a person (empty: every rule that decided this answer
    /// is stated). A server that differs from an answer with assumptions gets a note, not a failure (design.md, "Verdicts").
    public var assumptions: [String] = []
    /// Where this answer breaks its own contract (the model's self-check, when on); a face logs them.
    public var contractViolations: [String] = []
    /// A change the data directory could not make durable; it was undone and the answer is the internal error. A face logs it.
    public var storeFailure: String?

    /// An answer.
    public init(status: HTTPStatus, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
