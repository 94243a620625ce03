import Foundation

/// One outcome as CI systems show it, filled once by each command and rendered by every CI format (CTRF, job summary,
/// GitHub annotations, SARIF): a scenario, a verification check, an exploration rule, a lint problem or a contract change.
public struct CIResult: Sendable, Equatable {
    /// The verdict, in CTRF's vocabulary.
    public enum Status: String, Sendable, CaseIterable {
        /// The check held.
        case passed
        /// The check did not hold.
        case failed
        /// Not run, with a reason.
        case skipped
        /// Not run yet (CTRF's status; SpotCheck's commands do not produce it).
        case pending
        /// Neither passed nor failed, e.g. a known server defect; `rawStatus` says which.
        case other
    }

    /// How loudly a result is reported on the line at fault (annotations, SARIF); `nil` on a result is not reported there.
    public enum Level: String, Sendable {
        /// Fails the job.
        case error
        /// Worth a look, does not fail the job.
        case warning
        /// For information.
        case notice
    }

    /// The test's name, e.g. the scenario's.
    public var name: String
    /// The suite hierarchy from the top, e.g. `["spotcheck run", "scenarios"]`.
    public var suite: [String]
    /// The verdict.
    public var status: Status
    /// The command's own verdict when `status` is coarser (e.g. `knownDefect` for `other`).
    public var rawStatus: String?
    /// Wall time of the check.
    public var duration: Duration
    /// Why it failed or was skipped, in one line.
    public var message: String?
    /// The whole explanation (every mismatch, the journal), possibly several lines.
    public var details: String?
    /// The file and line at fault.
    public var location: CILocation?
    /// The rule the result is about (SARIF's `ruleId`), e.g. a change class of `diff`.
    public var rule: String?
    /// The annotation level; by default `error` for a failure and nothing otherwise.
    public var level: Level?

    /// A result; `level` defaults to `error` when `status` is `failed`.
    public init(name: String, suite: [String], status: Status, duration: Duration = .zero, message: String? = nil,
                details: String? = nil, location: CILocation? = nil, rule: String? = nil, level: Level? = nil, rawStatus: String? = nil)
    {
        self.name = name
        self.suite = suite
        self.status = status
        self.duration = duration
        self.message = message
        self.details = details
        self.location = location
        self.rule = rule
        self.level = level ?? (status == .failed ? .error : nil)
        self.rawStatus = rawStatus
    }

    /// The duration in whole milliseconds, as CTRF counts it.
    public var milliseconds: Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

/// A place in a file of the repository, for annotations and SARIF.
public struct CILocation: Sendable, Equatable {
    /// The path relative to the repository root, with `/` separators.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?

    /// A location.
    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }
}
