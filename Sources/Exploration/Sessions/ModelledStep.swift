import ContractKit
import ContractModel

/// One step of the scenario the model derived, with the rules its expectations check.
public struct ModelledStep: Sendable {
    /// What kind of step it is, for mapping a failure back to its rule.
    public enum Kind: Sendable, Equatable {
        /// An editField step, and whether the field has a length limit (what it keeps past it is the limit's rule).
        case edit(field: String, limited: Bool)
        /// A submission the model expects validation to stop.
        case rejectedSubmit
        /// A submission the model expects validation to pass (submit, double tap or Try Again), and whether it is Try Again.
        case attempt(succeeds: Bool, tryAgain: Bool = false)
        /// A submission where the seeds allow it to be stopped or sent.
        case ambiguousSubmit
        /// Cancel in the alert.
        case cancel
        /// Time passing with no tap.
        case idle
        /// A details read of a stored announcement.
        case read
        /// A read of the announcements list.
        case list
    }

    /// The step as a scenario file writes it.
    public var document: JSONValue
    /// Its kind.
    public var kind: Kind
    /// The rules its expectations check.
    public var rules: [ModelRule]
}
