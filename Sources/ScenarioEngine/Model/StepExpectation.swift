import ContractKit

/// Everything a step may require; an absent member is not checked.
public struct StepExpectation: Sendable {
    /// The client's outcome: success, failure, invalid, cancelled, edited.
    public var outcome: ClientOutcome?
    /// The management password the client handed to the summary screen must match this.
    public var managementPassword: TextPattern?
    /// The alert the client shows; `nil` in `alertAbsent` terms is checked separately.
    public var alert: AlertExpectation?
    /// Exact inline validation messages per field; fields not listed must have none.
    public var fieldErrors: [String: String]?
    /// Exact input values per field after the step.
    public var inputs: [String: String]?
    /// The inputs must equal what the user entered (the report, plus any edits).
    public var inputsIntact: Bool?
    /// Which screen the client shows afterwards: `form` or `summary`.
    public var screen: String?
    /// The pet details screen's state and presented values.
    public var details: DetailsExpectation?
    /// How many announcements the client's list shows.
    public var listedCount: Int?
    /// The raw HTTP answer (http steps only).
    public var http: HTTPExpectation?
    /// What must have reached the backend during this step.
    public var journal: JournalExpectation?
    /// Why the expectation holds, quoted in failure messages so a reader knows which behaviour broke.
    public var because: String?

    /// An expectation that checks nothing.
    public init() {}
}

/// The outcome a client reports for an action.
public enum ClientOutcome: String, Sendable, CaseIterable {
    /// The action completed (submission sent, details or list loaded).
    case success
    /// The action failed and the client shows an alert or error state.
    case failure
    /// Client-side validation rejected the input; nothing may be sent.
    case invalid
    /// The alert was dismissed with Cancel.
    case cancelled
    /// An input was changed.
    case edited
}

/// The alert a client must show.
public struct AlertExpectation: Sendable, Equatable {
    /// The accepted kinds, `noConnection` or `generic`; two only where platforms legitimately differ (e.g. a dropped connection).
    public var kinds: [String]
    /// The exact text shown; when absent, the standard text of the kind the client showed.
    public var message: String?

    /// The alert kinds and their exact texts from the PetSpot specification.
    public static let standardMessages = [
        "noConnection": "No connection. Please check your network and try again.",
        "generic": "Something went wrong. Please try again later.",
    ]
}

/// What the pet details screen must show.
public struct DetailsExpectation: Sendable, Equatable {
    /// `loading`, `loaded` or `error`.
    public var state: String?
    /// The error text (error state).
    public var message: String?
    /// Presented values by name (status, statusColor, microchip, lastSeenDate, reward, ...); only listed names are checked.
    public var presentation: [String: String]?

    /// The details states a client may report.
    public static let states = ["loading", "loaded", "error"]
}

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
