import MockBackend

/// What a step does.
public enum StepAction: Sendable {
    /// A client action, performed by the client driver.
    case client(ClientAction)
    /// A raw HTTP request sent by the engine itself (the client is not involved).
    case http(HTTPStepRequest)
    /// Replaces the target's fault rules from here on (e.g. `[]`: the network is back).
    case setFaults([FaultRule])
    /// The user does nothing for this many milliseconds (e.g. to prove the client sends nothing on its own).
    case wait(ms: Int)
    /// Moves the target's virtual fault clock forward this many seconds, at once: outages end, quota windows reset,
    /// failure ramps climb, without waiting.
    case advanceClock(seconds: Double)

    /// The action's name as written in scenario files.
    public var name: String {
        switch self {
        case .client(let action): return action.name
        case .http(let request): return "http \(request.method) \(request.path)"
        case .setFaults: return "setFaults"
        case .wait: return "wait"
        case .advanceClock: return "advanceClock"
        }
    }

    /// Whether the step needs the client under check.
    public var usesClient: Bool {
        if case .client = self { return true }
        return false
    }
}
