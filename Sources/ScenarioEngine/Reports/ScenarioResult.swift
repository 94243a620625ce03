import ContractKit
import ContractModel
import Foundation
import MockBackend

/// How one scenario ended.
public struct ScenarioResult: Sendable {
    /// The verdict.
    public enum Status: String, Sendable {
        /// Every step met its expectations.
        case passed
        /// A step did not meet its expectations, or the client or target broke.
        case failed
        /// Not run, with a reason (e.g. needs fixtures a proxy cannot set up, or `--fail-fast` stopped the run).
        case skipped
        /// The server answered differently from the contract, exactly as a listed known server defect says; not a failure.
        case knownDefect
        /// The server differed from the contracts' model only where the contracts state nothing (`assumptions` names what
        /// the model assumed); not a failure, except under `verify --strict`.
        case note
    }

    /// The scenario's name.
    public var name: String
    /// Its file, relative to the scenarios folder.
    public var file: String
    /// Its tags.
    public var tags: [String]
    /// The verdict.
    public var status: Status
    /// Wall time of the scenario, including starting and stopping its target and client.
    public var duration: Duration
    /// Why it failed: the first failed step, the headline.
    public var failure: ScenarioFailure?
    /// Every failed step in order (the first is `failure`); a scenario goes on after a failed step unless its outcome
    /// makes the rest meaningless, which the last failure's `stoppedEarly` says.
    public var failures: [ScenarioFailure] = []
    /// Where the seeds conflict, the reading the client took, step by step (e.g. 003 T044's mapping of a refused connection).
    public var readings: [String] = []
    /// Why it was skipped.
    public var skipReason: String?
    /// How many steps ran (the failing one included).
    public var stepsRun: Int
    /// The listed known defects the server showed here (status `knownDefect`).
    public var knownDefects: [KnownDefect] = []
    /// What the model assumed where the contracts state nothing, for a result that is a note (or a note failed by `--strict`).
    public var assumptions: [String] = []
    /// Checks that ran weaker than they could (e.g. an alert judged without the client's reported cause), for people.
    public var notes: [String] = []
    /// Listed known defects a step set off but the server answered as documented (it may have been fixed).
    public var knownDefectsNotSeen: [KnownDefect] = []
    /// What crossed the wire, kept for a failed scenario when the runner is asked to (`run --har-dir`).
    public var exchanges: [JournalEntry] = []
    /// Steps where the client timed out with no timing fault planned (SlowMachineRetry).
    public var unplannedTimeouts: [Int] = []
    /// Set when the scenario failed only on a slow machine: it passed with the deadlines raised (status `skipped`).
    public var slowMachine = false

    /// A result with these values.
    public init(name: String, file: String, tags: [String], status: Status, duration: Duration, failure: ScenarioFailure? = nil,
                skipReason: String? = nil, stepsRun: Int = 0)
    {
        self.name = name
        self.file = file
        self.tags = tags
        self.status = status
        self.duration = duration
        self.failure = failure
        self.failures = failure.map { [$0] } ?? []
        self.skipReason = skipReason
        self.stepsRun = stepsRun
    }

    /// Every failed step as text, the first (the headline) first; what console and JUnit reports show.
    public var failureMessage: String? {
        let all = failures.isEmpty ? failure.map { [$0] } ?? [] : failures
        guard !all.isEmpty else { return nil }
        var text = all.map(\.message).joined(separator: "\n")
        if all.count > 1 { text = "\(all.count) steps failed; every deviation follows, the first is the headline.\n" + text }
        return text
    }

    /// Duration in seconds, for reports.
    public var seconds: Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }
}
