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
    /// Take the client's device offline (optional for drivers): its networking fails as the platform does without a
    /// network (on Apple platforms `URLError.notConnectedToInternet`, -1009) until `deviceOnline`. A server cannot do this.
    case deviceOffline
    /// Bring the client's device back online (optional for drivers).
    case deviceOnline

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
        case .deviceOffline: return "deviceOffline"
        case .deviceOnline: return "deviceOnline"
        }
    }

    /// Every action name scenario files may use for a client step.
    public static let names = ["submit", "retry", "cancel", "editField", "loadDetails", "retryDetails", "list", "doubleTapContinue", "deviceOffline", "deviceOnline"]

    /// The actions a driver may answer `unsupported`; scenarios using them carry the tag `optional-protocol` and are skipped, not failed.
    public static let optionalNames: Set<String> = ["doubleTapContinue", "deviceOffline", "deviceOnline", "list"]

    /// Whether a driver may answer this action `unsupported`.
    public var isOptional: Bool { Self.optionalNames.contains(name) }
}
