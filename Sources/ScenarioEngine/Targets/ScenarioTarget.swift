import Foundation
import MockBackend

/// The server one scenario runs against: an embedded mock backend or a fault proxy in front of a real server.
public protocol ScenarioTarget: Sendable {
    /// Where the client sends its requests.
    var baseURL: URL { get }

    /// Every request received so far, oldest first.
    func journal() async -> [JournalRecord]

    /// Every exchange received so far with headers and bodies (what a HAR of the scenario holds); empty when not kept.
    func exchanges() async -> [JournalEntry]

    /// How many records the backend stores, or `nil` when the target cannot tell (a real server).
    func recordCount() async -> Int?

    /// Whether the backend stores the record `id`, read past the fault layer (the engine's own look-ups must never
    /// consume fault counters or receive faults meant for the client), at `readPath` where the target must ask a real
    /// server; `nil` when the target cannot tell.
    func recordExists(_ id: String, readPath: String?) async -> Bool?

    /// Replaces the fault rules (counters start again); returns once the target accepts connections as the new rules say.
    func replaceFaults(_ rules: [FaultRule]) async throws(TargetError)

    /// Moves the virtual clock the target's time-based fault rules read (outages, quotas, ramps) forward by `seconds`.
    func advanceClock(by seconds: Double) async

    /// Stops the target; called once, also after failures.
    func shutdown() async
}

extension ScenarioTarget {
    /// Targets that keep no full journal have no exchanges to give.
    public func exchanges() async -> [JournalEntry] { [] }
}
