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

/// Where and how a scenario failed.
public struct ScenarioFailure: Sendable {
    /// The failing step's number, `nil` when the scenario failed before its first step (e.g. the backend did not start).
    public var stepNumber: Int?
    /// The failing step's action, e.g. `retry`.
    public var action: String?
    /// The failing step's JSON pointer in the scenario file.
    public var pointer: String?
    /// Each expectation that did not hold.
    public var mismatches: [Mismatch]
    /// The scenario's reason for the expectation, from `because`.
    public var because: String?
    /// The requests the target received (during the step, or all of them when none arrived during it).
    public var journalExcerpt: [String]

    /// A failure with these values.
    public init(stepNumber: Int?, action: String?, pointer: String?, mismatches: [Mismatch], because: String? = nil, journalExcerpt: [String] = []) {
        self.stepNumber = stepNumber
        self.action = action
        self.pointer = pointer
        self.mismatches = mismatches
        self.because = because
        self.journalExcerpt = journalExcerpt
    }

    /// The whole failure as text: step, each expected vs actual, reason, journal.
    public var message: String {
        var lines: [String] = []
        if let stepNumber, let action {
            lines.append("step \(stepNumber) (\(action)) at \(pointer ?? "?"):")
        }
        for m in mismatches { lines.append("  " + m.description) }
        if let because { lines.append("  why it matters: \(because)") }
        if !journalExcerpt.isEmpty {
            lines.append("  journal:")
            lines.append(contentsOf: journalExcerpt.map { "    " + $0 })
        }
        return lines.joined(separator: "\n")
    }

    /// The first mismatch in one line, for summaries.
    public var headline: String {
        let first = mismatches.first?.description.split(separator: "\n").first.map(String.init) ?? "failed"
        guard let stepNumber, let action else { return first }
        return "step \(stepNumber) (\(action)): \(first)"
    }
}

/// One expectation that did not hold.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// What was checked, e.g. `alert kind`.
    public var subject: String
    /// What the scenario expected.
    public var expected: String
    /// What actually happened.
    public var actual: String

    /// A mismatch of `subject`.
    public init(_ subject: String, expected: String, actual: String) {
        self.subject = subject
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "\(subject): expected \(expected), got \(actual)" }
}
