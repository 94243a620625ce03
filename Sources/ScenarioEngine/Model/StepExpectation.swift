import ContractKit
import ContractModel

/// Everything a step may require; an absent member is not checked.
public struct StepExpectation: Sendable {
    /// The client's outcome: success, failure, invalid, cancelled, edited.
    public var outcome: ClientOutcome?
    /// Further accepted outcomes where the seeds allow several readings; checks tied to an outcome apply only to the one chosen.
    public var otherOutcomes: [ClientOutcome] = []
    /// The management password the client handed to the summary screen must match this.
    public var managementPassword: TextPattern?
    /// The alert the client must show; without it, any alert after success, invalid, cancelled or edited is a failure.
    public var alert: AlertExpectation?
    /// Exact inline validation messages per field; fields not listed must have none.
    public var fieldErrors: [String: String]?
    /// Further accepted sets of inline messages where the seeds allow several readings (e.g. 003 T031's return-early validation).
    public var otherFieldErrors: [[String: String]] = []
    /// Accepted input values per field after the step (any one of them; most list one).
    public var inputs: [String: [String]]?
    /// The inputs must equal what the user entered (the report, plus any edits).
    public var inputsIntact: Bool?
    /// Which screen the client shows afterwards: `form` or `summary`.
    public var screen: String?
    /// The pet details screen's state and presented values.
    public var details: DetailsExpectation?
    /// How many announcements the client's list shows.
    public var listedCount: Int?
    /// The analytics event names the client must report since its previous answer; checked when it reports them.
    public var analytics: [String]?
    /// The raw HTTP answer (http steps only).
    public var http: HTTPExpectation?
    /// The password handed to the summary must open the announcement that received the photo (read from the journal).
    public var passwordOpensPhoto: Bool?
    /// What must have reached the backend during this step.
    public var journal: JournalExpectation?
    /// Why the expectation holds, quoted in failure messages so a reader knows which behaviour broke.
    public var because: String?

    /// An expectation that checks nothing.
    public init() {}
}
