/// The body every non-2xx PetSpot answer carries: `{"error": {"requestId", "code", "message", "field"}}`.
public struct APIErrorEnvelope: Sendable, Equatable, Decodable {
    /// The 10-character id the backend also sends in the `request-id` header.
    public let requestId: String?
    /// The machine-readable error code, e.g. `MISSING_VALUE` or `UNAUTHORIZED`.
    public let code: String
    /// The backend's human-readable message.
    public let message: String?
    /// The offending field, when the backend names one.
    public let field: String?

    /// Creates an envelope, e.g. for tests.
    public init(requestId: String? = nil, code: String, message: String? = nil, field: String? = nil) {
        self.requestId = requestId
        self.code = code
        self.message = message
        self.field = field
    }

    private enum OuterKeys: String, CodingKey { case error }
    private enum InnerKeys: String, CodingKey { case requestId, code, message, field }

    /// Decodes the nested `{"error": {...}}` shape.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: OuterKeys.self)
        let inner = try outer.nestedContainer(keyedBy: InnerKeys.self, forKey: .error)
        requestId = try inner.decodeIfPresent(String.self, forKey: .requestId)
        code = try inner.decode(String.self, forKey: .code)
        message = try inner.decodeIfPresent(String.self, forKey: .message)
        field = try inner.decodeIfPresent(String.self, forKey: .field)
    }
}
