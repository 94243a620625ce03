import ContractKit

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

    /// Whether any check needs state only the embedded mock backend can report.
    public var needsBackendState: Bool { announcements != nil }
}
