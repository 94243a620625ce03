import ContractKit
import ContractModel

/// What the client's networking layer reported behind an alert (protocol key `cause`), so the engine can judge the
/// alert from the seeds' mapping of that cause on any platform instead of accepting either alert.
public struct ObservedCause: Sendable, Equatable {
    /// The kinds a client may report.
    public enum Kind: String, Sendable, CaseIterable {
        /// An error of the platform's URL loading system: `domain` (default `NSURLErrorDomain`) and `code`.
        case urlError
        /// A transport failure named portably, for clients without URLError: `reason`.
        case transport
        /// An HTTP answer with another status than the promised one: `status`.
        case httpStatus
        /// The promised status with a body the client cannot use.
        case decoding
        /// Anything else (e.g. the client refused to send an incomplete report).
        case other
    }

    /// The portable transport reasons; `SeedAlertPolicy.cause(forTransportReason:)` says which alerts the seeds allow for each.
    public static let transportReasons: [String] = ["offline", "refused", "timedOut", "hostNotFound", "connectionLost", "reset", "truncated", "badResponse"]

    /// The kind.
    public var kind: Kind
    /// The error domain (`urlError`).
    public var domain: String?
    /// The error code (`urlError`).
    public var code: Int?
    /// The HTTP status (`httpStatus`, optionally `decoding`).
    public var status: Int?
    /// The portable reason (`transport`).
    public var reason: String?
    /// Free text for people.
    public var detail: String?
    /// For `decoding`: where in the answer's body decoding failed, as the client's decoder says (a JSON pointer such as
    /// `/photoUrl`, or Swift's `DecodingError` coding path), printed with the answer's unusual values.
    public var decodingPath: String?

    /// A cause with these values.
    public init(kind: Kind, domain: String? = nil, code: Int? = nil, status: Int? = nil, reason: String? = nil, detail: String? = nil,
                decodingPath: String? = nil) {
        self.kind = kind
        self.domain = domain
        self.code = code
        self.status = status
        self.reason = reason
        self.detail = detail
        self.decodingPath = decodingPath
    }

    /// The cause as the protocol's JSON object.
    public var wireValue: JSONValue {
        var o: JSONObject = ["kind": .string(kind.rawValue)]
        if let domain { o["domain"] = .string(domain) }
        if let code { o["code"] = .number(Double(code)) }
        if let status { o["status"] = .number(Double(status)) }
        if let reason { o["reason"] = .string(reason) }
        if let detail { o["detail"] = .string(detail) }
        if let decodingPath { o["decodingPath"] = .string(decodingPath) }
        return .object(o)
    }
}
