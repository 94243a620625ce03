import ContractKit
import ContractModel
import Foundation

/// The outcome of a whole run.
public struct RunReport: Sendable {
    /// Every selected scenario's result, in library order.
    public let results: [ScenarioResult]
    /// Wall time of the run.
    public let duration: Duration
    /// The client under check, for report headers.
    public let client: String
    /// The target kind, for report headers.
    public let target: String

    /// A report with these values.
    public init(results: [ScenarioResult], duration: Duration, client: String, target: String) {
        self.results = results
        self.duration = duration
        self.client = client
        self.target = target
    }

    /// How many passed.
    public var passed: Int { results.filter { $0.status == .passed }.count }
    /// How many failed.
    public var failed: Int { results.filter { $0.status == .failed }.count }
    /// How many were skipped.
    public var skipped: Int { results.filter { $0.status == .skipped }.count }
    /// How many showed a listed known server defect (not failures).
    public var knownDefects: Int { results.filter { $0.status == .knownDefect }.count }
    /// How many differed only where the contracts state nothing (notes, not failures).
    public var noted: Int { results.filter { $0.status == .note }.count }

    /// Listed known defects whose documented answer was checked and came out right: the entry should be removed.
    public var unseenKnownDefects: [KnownDefect] = []
    /// Listed known defects past their `expires` date: they excused nothing in this run.
    public var expiredKnownDefects: [KnownDefect] = []
    /// `--strict`: an unseen known defect fails the run, like pytest's `xfail(strict=True)`.
    public var strictKnownDefects = false

    /// Wall time in seconds.
    public var seconds: Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }

    /// The process exit code of design.md: 0 all passed (skips allowed), 1 a scenario failed.
    ///
    /// Known defects do not fail a run; under `--strict` a known defect that was no longer seen does.
    public var exitCode: Int32 { failed > 0 || (strictKnownDefects && !unseenKnownDefects.isEmpty) ? 1 : 0 }
}
