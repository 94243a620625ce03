import Foundation

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
    /// The tail of what the client wrote for people (an external client's stderr), whatever made the step fail.
    public var clientStderr: String?
    /// Why the scenario stopped at this step instead of checking the rest (`nil`: it went on, or this was the last step).
    public var stoppedEarly: String?
    /// The 2xx answer the client did not present, with its unusual values, when that is how the step failed.
    public var unreadAnswer: UnreadAnswer?

    /// A failure with these values.
    public init(stepNumber: Int?, action: String?, pointer: String?, mismatches: [Mismatch], because: String? = nil, journalExcerpt: [String] = [],
                clientStderr: String? = nil) {
        self.stepNumber = stepNumber
        self.action = action
        self.pointer = pointer
        self.mismatches = mismatches
        self.because = because
        self.journalExcerpt = journalExcerpt
        self.clientStderr = clientStderr
    }

    /// The whole failure as text: step, each expected vs actual, reason, journal.
    public var message: String {
        var lines: [String] = []
        if let stepNumber, let action {
            lines.append("step \(stepNumber) (\(action)) at \(pointer ?? "?"):")
        }
        // A check with its own rule is explained by it; the step's reason explains the others.
        for m in mismatches {
            lines.append("  " + m.description)
            if let why = m.why, why != because { lines.append("    why it matters: \(why)") }
        }
        if let because, mismatches.contains(where: { $0.why == nil || $0.why == because }) { lines.append("  why it matters: \(because)") }
        if let unreadAnswer { lines += unreadAnswer.lines.map { "  " + $0 } }
        if let stoppedEarly { lines.append("  later steps not run: \(stoppedEarly)") }
        if !journalExcerpt.isEmpty {
            lines.append("  journal:")
            lines.append(contentsOf: journalExcerpt.map { "    " + $0 })
        }
        if let clientStderr, !clientStderr.isEmpty {
            lines.append("  client stderr (tail):")
            lines.append(contentsOf: clientStderr.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 })
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
