import Foundation

/// A whole command's results for CI: what ran, when, and each result; every CI writer renders this one value.
public struct CIReport: Sendable {
    /// The tool's name, e.g. `spotcheck`.
    public var tool: String
    /// The tool's version, when known.
    public var toolVersion: String?
    /// The command, e.g. `run`; reports are titled `tool command`.
    public var command: String
    /// When the command started.
    public var start: Date
    /// When the command finished.
    public var stop: Date
    /// Every result, in the command's order.
    public var results: [CIResult]
    /// Lines that say how to reproduce or read the run (seed, client, target), shown under the summary's title.
    public var facts: [String] = []
    /// One-line descriptions of the rules results name, by rule id (SARIF's `rules`).
    public var ruleDescriptions: [String: String] = [:]

    /// A report of `results`.
    public init(tool: String = "spotcheck", toolVersion: String? = nil, command: String, start: Date, stop: Date, results: [CIResult]) {
        self.tool = tool
        self.toolVersion = toolVersion
        self.command = command
        self.start = start
        self.stop = stop
        self.results = results
    }

    /// `spotcheck run`.
    public var title: String { "\(tool) \(command)" }

    /// How many results have `status`.
    public func count(_ status: CIResult.Status) -> Int {
        results.filter { $0.status == status }.count
    }

    /// Milliseconds since the Unix epoch, as CTRF dates runs.
    static func epochMilliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 * 1000).rounded())
    }
}
