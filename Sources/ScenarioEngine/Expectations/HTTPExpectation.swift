import ContractKit
import ContractModel

/// What the raw HTTP answer must be.
public struct HTTPExpectation: Sendable {
    /// The status code.
    public var status: Int?
    /// The error envelope's `code`.
    public var errorCode: String?
    /// The error envelope's `field`.
    public var errorField: String?
    /// Header name (case-insensitive) → pattern the value must match.
    public var headers: [(name: String, pattern: TextPattern)] = []
    /// JSON pointer into the body → pattern the value (as text) must match.
    public var bodyMatches: [(pointer: String, pattern: TextPattern)] = []
    /// JSON pointer into the body → exact JSON value.
    public var bodyEquals: [(pointer: String, value: JSONValue)] = []
}
