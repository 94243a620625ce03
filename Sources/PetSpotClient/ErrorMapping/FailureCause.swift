/// What the networking layer (or the decoding after it) reported behind a failure, so a checker can judge the
/// alert from the cause instead of guessing it from the fault: the same fault is a different URLError per platform.
public struct FailureCause: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of cause a failure can have.
    public enum Kind: String, Sendable, Hashable {
        /// A `URLError` (or an `NSError` in `NSURLErrorDomain`): `domain` and `code` are set.
        case urlError
        /// An HTTP answer with a status other than the promised one: `status` is set.
        case httpStatus
        /// The promised status with a body the client cannot use.
        case decoding
        /// No request was made, or the failure is not about the network at all.
        case other
    }

    /// The kind.
    public let kind: Kind
    /// The error domain, for `urlError`.
    public let domain: String?
    /// The error code, for `urlError`.
    public let code: Int?
    /// The HTTP status, for `httpStatus` and `decoding`.
    public let status: Int?
    /// A short explanation for people (e.g. the decoding problem).
    public let detail: String?
    /// For `decoding`: where in the body decoding failed, as a JSON pointer (e.g. `/photoUrl`), when known.
    public let decodingPath: String?

    /// A cause with these values.
    public init(kind: Kind, domain: String? = nil, code: Int? = nil, status: Int? = nil, detail: String? = nil, decodingPath: String? = nil) {
        self.kind = kind
        self.domain = domain
        self.code = code
        self.status = status
        self.detail = detail
        self.decodingPath = decodingPath
    }

    /// The domain of `URLError`s, spelled out so this file needs no Foundation.
    public static let urlErrorDomain = "NSURLErrorDomain"

    /// One line, e.g. `NSURLErrorDomain -1004` or `HTTP 503`.
    public var description: String {
        switch kind {
        case .urlError: return "\(domain ?? Self.urlErrorDomain) \(code.map(String.init) ?? "?")"
        case .httpStatus: return "HTTP \(status.map(String.init) ?? "?")"
        case .decoding: return "an unreadable body" + (status.map { " (HTTP \($0))" } ?? "")
        case .other: return detail ?? "another failure"
        }
    }
}
