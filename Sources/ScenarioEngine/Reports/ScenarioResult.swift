import ContractKit
import Foundation

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
    /// Why it failed.
    public var failure: ScenarioFailure?
    /// Why it was skipped.
    public var skipReason: String?
    /// How many steps ran (the failing one included).
    public var stepsRun: Int
    /// The listed known defects the server showed here (status `knownDefect`).
    public var knownDefects: [KnownDefect] = []
    /// Checks that ran weaker than they could (e.g. an alert judged without the client's reported cause), for people.
    public var notes: [String] = []
    /// Listed known defects a step set off but the server answered as documented (it may have been fixed).
    public var knownDefectsNotSeen: [KnownDefect] = []

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
        self.skipReason = skipReason
        self.stepsRun = stepsRun
    }

    /// Duration in seconds, for reports.
    public var seconds: Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }
}
