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

    /// Wall time in seconds.
    public var seconds: Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }

    /// The process exit code of design.md: 0 all passed (skips allowed), 1 a scenario failed.
    public var exitCode: Int32 { failed > 0 ? 1 : 0 }
}
