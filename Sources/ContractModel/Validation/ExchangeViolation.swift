/// A way an exchange left its contract, as the journal records it beside the exchange.
public struct ExchangeViolation: Sendable, Codable, Equatable {
    /// Which side of the exchange broke the contract.
    public enum Side: String, Sendable, Codable {
        /// The request did not match what the contract accepts.
        case client
        /// The answer did not match what the contract documents.
        case server
        /// No contract documents the endpoint: the contracts are silent, so neither the client nor the server is blamed.
        case contracts
    }

    /// The contract the exchange was matched to, if any.
    public var contract: String?
    /// A JSON pointer (or `header:<name>`, `status`) to what is wrong.
    public var pointer: String
    /// What the contract expected.
    public var expected: String
    /// What was seen instead.
    public var got: String
    /// The side at fault.
    public var side: Side
    /// Set when the difference is a listed known server defect rather than a violation; its id.
    public var knownDefect: String?
    /// Set when the expected answer is the model's and the model assumed it where the contracts state nothing: the
    /// difference is a note naming these assumptions, not a violation (design.md, "Verdicts"). Absent from older journals.
    public var assumptions: [String]?

    /// A violation with these values.
    public init(contract: String?, pointer: String, expected: String, got: String, side: Side, knownDefect: String? = nil,
                assumptions: [String]? = nil) {
        self.contract = contract
        self.pointer = pointer
        self.expected = expected
        self.got = got
        self.side = side
        self.knownDefect = knownDefect
        self.assumptions = assumptions
    }
}
