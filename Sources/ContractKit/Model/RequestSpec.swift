import Foundation

/// What a client sends to an endpoint.
public struct RequestSpec: Sendable {
    /// The body's media type, e.g. "application/json" or "multipart/form-data"; nil for no body.
    public let contentType: String?
    /// The authentication the endpoint demands, if any.
    public let auth: AuthRequirement?
    /// Documented request headers (besides auth), in file order.
    public let headers: [ParameterSpec]
    /// Query parameters, in file order.
    public let query: [ParameterSpec]
    /// JSON Schema of a JSON body (`$ref`s relative to the contracts folder).
    public let body: JSONValue?
    /// Parts of a multipart body, in file order.
    public let parts: [MultipartPart]
    /// The largest body accepted, in bytes; larger answers 413.
    public let maxBodyBytes: Int?
    /// The largest file part accepted, in bytes (exclusive: a file of this size is too large).
    public let maxFileBytes: Int?
    /// Named request bodies that satisfy `body`.
    public let examples: [ContractExample]

    /// A request with nothing in it (e.g. a GET without parameters).
    public static let empty = RequestSpec(contentType: nil, auth: nil, headers: [], query: [], body: nil, parts: [],
                                          maxBodyBytes: nil, maxFileBytes: nil, examples: [])

    /// A request specification.
    public init(contentType: String?, auth: AuthRequirement?, headers: [ParameterSpec], query: [ParameterSpec],
                body: JSONValue?, parts: [MultipartPart], maxBodyBytes: Int?, maxFileBytes: Int?,
                examples: [ContractExample]) {
        self.contentType = contentType
        self.auth = auth
        self.headers = headers
        self.query = query
        self.body = body
        self.parts = parts
        self.maxBodyBytes = maxBodyBytes
        self.maxFileBytes = maxFileBytes
        self.examples = examples
    }
}

/// How an endpoint authenticates its caller.
public struct AuthRequirement: Sendable, Equatable {
    /// "basic", "bearer" (both in the Authorization header) or "apiKey" (a token in `header`).
    public let scheme: String
    /// The header carrying the credentials, e.g. "Authorization" or "X-Admin-Token".
    public let header: String
    /// What the credentials are made of, e.g. "{id}:{managementPassword}".
    public let credentials: String?
    /// Free text for people.
    public let description: String?
    /// Whether the credential is an administrator's (`"x-admin": true`): the endpoint is not for the app's web pages, so
    /// browsers get no CORS grant for it and a browser's request from another site is refused (docs/security.md).
    public var isAdmin = false
}

/// A named, typed value in a path, query string or header.
public struct ParameterSpec: Sendable {
    /// The parameter or header name.
    public let name: String
    /// Whether it must be present.
    public let required: Bool
    /// JSON Schema of the value (query and path values are parsed as JSON numbers when the schema says so).
    public let schema: JSONValue
    /// Free text for people.
    public let description: String?
}

/// One part of a multipart/form-data body.
public struct MultipartPart: Sendable, Equatable {
    /// The part's form name, e.g. "photo".
    public let name: String
    /// Whether it must be present.
    public let required: Bool
    /// "file" or "text".
    public let kind: String
    /// Free text for people.
    public let description: String?
}
