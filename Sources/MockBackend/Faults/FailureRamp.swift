import ContractKit
import ContractModel

/// A failure rate that worsens over time: the chance rises linearly from `from` to `to` over `seconds`, counted from
/// the first request the rule's selector matched, and stays at `to` afterwards.
public struct FailureRamp: Sendable, Equatable {
    /// The chance (0...1) at the first matching request.
    public var from: Double
    /// The chance (0...1) reached after `seconds`.
    public var to: Double
    /// How long the rise takes, in seconds (more than 0).
    public var seconds: Double

    /// A ramp from `from` to `to` over `seconds`.
    public init(from: Double, to: Double, seconds: Double) {
        self.from = from
        self.to = to
        self.seconds = seconds
    }

    /// The chance a request gets the fault `elapsed` seconds after the first matching request.
    public func probability(after elapsed: Double) -> Double {
        let progress = min(1, max(0, elapsed / seconds))
        return from + (to - from) * progress
    }

    /// The ramp in the rule-file format.
    public var json: JSONValue {
        .object(["from": .number(from), "to": .number(to), "seconds": .number(seconds)])
    }
}
