import MockBackend

/// A user action on the client, as scenario files name it and drivers perform it.
public enum ClientAction: Sendable, Equatable {
    /// Tap Continue on the contact-details step: validate, then the two-step submission.
    case submit
    /// Tap Continue twice in quick succession (optional for drivers): one submission must run, not two.
    case doubleTapContinue
    /// Tap "Try Again" in the failure alert: the whole two-step submission again from step 1.
    case retry
    /// Tap "Cancel" in the failure alert: dismiss it, keep every input.
    case cancel
    /// Type a new value into a contact input (phone, email or reward).
    case editField(field: String, value: String)
    /// Open the pet details screen for an announcement id.
    case loadDetails(id: String)
    /// Tap the retry button of the details error state.
    case retryDetails
    /// Load the announcement list, optionally around a location.
    case list(latitude: Double?, longitude: Double?, rangeKm: Int?)

    /// The action's name in scenario files and in the external-client protocol.
    public var name: String {
        switch self {
        case .submit: return "submit"
        case .doubleTapContinue: return "doubleTapContinue"
        case .retry: return "retry"
        case .cancel: return "cancel"
        case .editField: return "editField"
        case .loadDetails: return "loadDetails"
        case .retryDetails: return "retryDetails"
        case .list: return "list"
        }
    }

    /// Every action name scenario files may use for a client step.
    public static let names = ["submit", "retry", "cancel", "editField", "loadDetails", "retryDetails", "list", "doubleTapContinue"]
}
