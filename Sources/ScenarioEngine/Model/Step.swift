import MockBackend

/// One thing the user (or a raw HTTP request) does in a scenario, with what must be true afterwards.
public struct Step: Sendable {
    /// 1-based position in the scenario.
    public let number: Int
    /// The JSON pointer of the step in its file, e.g. `/steps/2`.
    public let pointer: String
    /// What happens.
    public let action: StepAction
    /// What must be observed afterwards.
    public let expect: StepExpectation

    /// A step at `number` with this action and expectation.
    public init(number: Int, pointer: String, action: StepAction, expect: StepExpectation) {
        self.number = number
        self.pointer = pointer
        self.action = action
        self.expect = expect
    }
}

/// What a step does.
public enum StepAction: Sendable {
    /// A client action, performed by the client driver.
    case client(ClientAction)
    /// A raw HTTP request sent by the engine itself (the client is not involved).
    case http(HTTPStepRequest)
    /// Replaces the target's fault rules from here on (e.g. `[]`: the network is back).
    case setFaults([FaultRule])

    /// The action's name as written in scenario files.
    public var name: String {
        switch self {
        case .client(let action): return action.name
        case .http(let request): return "http \(request.method) \(request.path)"
        case .setFaults: return "setFaults"
        }
    }

    /// Whether the step needs the client under check.
    public var usesClient: Bool {
        if case .client = self { return true }
        return false
    }
}

/// A user action on the client, as scenario files name it and drivers perform it.
public enum ClientAction: Sendable, Equatable {
    /// Tap Continue on the contact-details step: validate, then the two-step submission.
    case submit
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
        case .retry: return "retry"
        case .cancel: return "cancel"
        case .editField: return "editField"
        case .loadDetails: return "loadDetails"
        case .retryDetails: return "retryDetails"
        case .list: return "list"
        }
    }

    /// Every action name scenario files may use for a client step.
    public static let names = ["submit", "retry", "cancel", "editField", "loadDetails", "retryDetails", "list"]
}
