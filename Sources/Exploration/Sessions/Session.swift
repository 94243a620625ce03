/// A generated user session: the report, what the user does, and the faults the backend injects while they do it.
public struct Session: Sendable, Equatable, Hashable {
    /// The user's actions in order.
    public var actions: [SessionAction]
    /// Faults by contract and call.
    public var faults: [PlannedFault]
    /// Optional step 1-3 fields the user left empty (removed from the report).
    public var omittedFields: [String]
    /// The last-seen date the user picked, when not the report's own.
    public var lastSeenDate: String?
    /// Announcements the backend holds before the first step, for details and list reads.
    public var stored: [StoredPet] = []
    /// The microchip number the user entered at step 1, when the report has one (digits).
    public var microchip: String?
    /// Free text the user typed or pasted in steps 1-3 instead of the report's own, by report field (edge values: every
    /// Unicode class, lengths at storage limits); the create body must carry each exactly.
    public var reportText: [String: String] = [:]
    /// Step 3 numbers the user entered instead of the report's own (a location class: 0, -0, a bound, many decimals).
    public var reportNumbers: [String: Double] = [:]
    /// The query every list read of the session sends; `nil` sends none.
    public var listQuery: ListQuery?
    /// The input class or answer class this session tries (`SessionGenerator.addInputClass`), for reports and shrinking.
    public var inputClass: String?

    /// A session with these actions and faults.
    public init(actions: [SessionAction], faults: [PlannedFault], omittedFields: [String] = [], lastSeenDate: String? = nil) {
        self.actions = actions
        self.faults = faults
        self.omittedFields = omittedFields
        self.lastSeenDate = lastSeenDate
    }
}
