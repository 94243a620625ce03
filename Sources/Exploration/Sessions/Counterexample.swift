import ContractKit
import ContractModel

/// A session the client failed, before and after shrinking.
public struct Counterexample: Sendable {
    /// Which generated session (0-based) failed first.
    public var sessionIndex: Int
    /// The session as generated.
    public var original: Session
    /// The shrunk session.
    public var shrunk: Session
    /// How the shrunk session fails (the same way as the original).
    public var failure: SessionFailure
    /// The shrunk session as a scenario file, ready to save.
    public var document: JSONValue
    /// The number of steps of the original and of the shrunk scenario.
    public var steps: (original: Int, shrunk: Int)
    /// How many candidates the shrinker ran.
    public var shrinkRuns: Int
}
