import ContractKit
import ContractModel

/// Named fault sets for client developers: `flaky`, `slow` and `offline`.
public enum FaultPreset: String, Sendable, CaseIterable {
    /// A seeded 20 % of requests answer 503 (Retry-After: 1) and another 10 % are dropped.
    case flaky
    /// Every answer arrives 1.5 s late.
    case slow
    /// Connections are refused until the rules change (the admin port stays up).
    case offline

    /// The seed used when none is given, so a preset behaves the same on every run.
    public static let defaultSeed: UInt64 = 42

    /// The rules of the preset; `seed` drives the probabilistic ones.
    public func rules(seed: UInt64? = nil) -> [FaultRule] {
        let seed = seed ?? FaultPreset.defaultSeed
        switch self {
        case .flaky:
            let envelope: JSONValue = .object(["error": .object([
                "code": "SERVICE_UNAVAILABLE", "message": "Injected by the flaky preset; try again.",
            ])])
            return [
                FaultRule(name: "flaky: 503", probability: 0.2, seed: seed,
                          fault: .status(503, body: envelope, headers: ["Retry-After": "1"])),
                // A different seed keeps the two draws independent of each other.
                FaultRule(name: "flaky: drop", probability: 0.125, seed: seed &+ 1, fault: .drop),
            ]
        case .slow:
            return [FaultRule(name: "slow: +1500 ms", fault: .delay(ms: 1500))]
        case .offline:
            return [FaultRule(name: "offline", fault: .refuse(ms: nil))]
        }
    }
}
