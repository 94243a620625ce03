import ContractKit
import ContractModel

/// What the client shows after an action: the engine's only view of the client, whichever driver runs it.
public struct ClientObservation: Sendable, Equatable {
    /// How the action ended.
    public var outcome: ClientOutcome
    /// The alert on screen, if any.
    public var alert: ObservedAlert?
    /// The password handed to the summary screen after a successful submission.
    public var managementPassword: String?
    /// Inline validation messages by field.
    public var fieldErrors: [String: String]
    /// The current contact inputs (phone, email, reward).
    public var inputs: [String: String]?
    /// The screen shown: `form` (contact details) or `summary`; `nil` when the action is not about the form.
    public var screen: String?
    /// The pet details screen, after `loadDetails` or `retryDetails`.
    public var details: ObservedDetails?
    /// The announcement ids of a loaded list.
    public var listedIDs: [String]?
    /// What the networking layer reported behind the alert or failure, when the client tells.
    public var cause: ObservedCause?
    /// Analytics event names emitted since the previous answer, when the client reports them (`nil`: not reported).
    public var analytics: [String]?
    /// A failure the screen shows inline instead of in an alert (the list screen, whose errors no seed describes).
    public var inlineError: String?

    /// An observation with these values.
    public init(
        outcome: ClientOutcome, alert: ObservedAlert? = nil, managementPassword: String? = nil, fieldErrors: [String: String] = [:],
        inputs: [String: String]? = nil, screen: String? = nil, details: ObservedDetails? = nil, listedIDs: [String]? = nil,
        cause: ObservedCause? = nil, analytics: [String]? = nil
    ) {
        self.outcome = outcome
        self.alert = alert
        self.managementPassword = managementPassword
        self.fieldErrors = fieldErrors
        self.inputs = inputs
        self.screen = screen
        self.details = details
        self.listedIDs = listedIDs
        self.cause = cause
        self.analytics = analytics
    }
}
