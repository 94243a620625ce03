import ContractKit
import ContractModel

/// What the backend's request journal must show for one step.
public struct JournalExpectation: Sendable {
    /// Exact number of calls per contract id during the step; contracts not listed are not checked.
    public var calls: [(contract: String, count: Int)] = []
    /// The exact sequence of contract ids received during the step.
    public var order: [String]?
    /// No request at all reached the backend during the step.
    public var noRequests: Bool = false
    /// Every photo upload's Basic auth user is the id in its own path, and that id was created in this scenario.
    public var authUserIsCreatedId: Bool = false
    /// The number of announcements on the backend after the step.
    public var announcements: Int?
    /// Every create request of the step carries the report and the current contact inputs as the API expects them.
    public var sentReport: Bool = false
    /// JSON pointer → exact value every create request body of the step must hold.
    public var sentBody: [(pointer: String, value: JSONValue)] = []
    /// JSON pointer → pattern the value (as text) at that pointer of every create request body must match.
    public var sentBodyMatches: [(pointer: String, pattern: TextPattern)] = []

    /// Whether any check reads the bodies of create requests.
    public var checksSentBodies: Bool { sentReport || !sentBody.isEmpty || !sentBodyMatches.isEmpty }

    /// Whether any check needs state only the embedded mock backend can report.
    public var needsBackendState: Bool { announcements != nil }
}
