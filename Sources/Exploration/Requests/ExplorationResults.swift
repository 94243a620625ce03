import ContractKit
import Foundation
import ScenarioEngine

/// Turns an exploration's outcome into the report shape `verify` writes (console, JUnit, JSON): one result per rule,
/// named `explore › …` and tagged `exploration`, so a report tells exploration's differences from the examples'.
public enum ExplorationResults {
    /// The tag every exploration result carries (example results carry `examples`).
    public static let tag = "exploration"

    /// One result per difference group, one for a setup failure, and one for header changes (informational unless
    /// `strictHeaders`, then failed).
    public static func results(_ outcome: ExplorationOutcome, strictHeaders: Bool) -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        if let reason = outcome.setupFailure {
            var result = ScenarioResult(name: "explore › setup", file: "contracts", tags: [tag], status: .failed, duration: outcome.duration)
            result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                             mismatches: [Mismatch("exploration", expected: "the run's announcements created on the server and the model", actual: reason)])
            results.append(result)
        }
        for group in outcome.groups {
            var result = ScenarioResult(name: "explore › \(group.route): \(group.rule)", file: "contracts", tags: [group.route, tag],
                                        status: group.knownDefect == nil ? .failed : .knownDefect, duration: .zero)
            result.notes = [group.headline, "first generated request: \(group.firstRequest)", "shrunk in \(group.shrinkTries) tries"]
            if let defect = group.knownDefect {
                result.knownDefects = [defect]
            } else {
                result.failure = ScenarioFailure(
                    stepNumber: nil, action: nil, pointer: nil,
                    mismatches: group.differences.map { Mismatch($0.aspect, expected: "\($0.model) (the model)", actual: $0.server) },
                    journalExcerpt: ["minimal request: \(group.minimalRequest)", "model → \(group.model)", "server → \(group.server)",
                                     "\(group.count) generated case(s) differed this way; seed \(outcome.seed)"])
            }
            results.append(result)
        }
        if !outcome.coverage.isEmpty {
            // Informational: the listing shows where the contracts state more than the generator reaches.
            var result = ScenarioResult(name: "explore › stated rules", file: "contracts", tags: [tag, "coverage"], status: .passed, duration: .zero)
            let missed = outcome.notExercised
            result.notes = [coverageSummary(outcome)] + missed.map { "not exercised: \($0.id)" } + outcome.coverage.map(\.line)
            results.append(result)
        }
        let headerLines = headerNotes(outcome)
        if !headerLines.isEmpty {
            var result = ScenarioResult(name: "explore › response headers", file: "contracts", tags: [tag], status: .passed, duration: .zero)
            result.notes = headerLines
            if strictHeaders {
                result.status = .failed
                result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                                 mismatches: headerLines.map { Mismatch("headers", expected: "the model's header names", actual: $0) })
            }
            results.append(result)
        }
        return results
    }

    /// The console's exploration section: seed and budget, each group's headline, headers, what was left on the server.
    public static func consoleLines(_ outcome: ExplorationOutcome, strictHeaders: Bool) -> [String] {
        var lines = ["explored with seed \(outcome.seed): \(outcome.casesSent) generated requests "
            + "(\(min(outcome.casesSent, outcome.systematicCases)) of \(outcome.systematicCases) systematic, the rest random pairs; +\(outcome.shrinkRequests) to shrink) "
            + "in \(String(format: "%.1f", Double(outcome.duration.components.seconds) + Double(outcome.duration.components.attoseconds) / 1e18)) s, "
            + "each sent to the server and the model"]
        if let reason = outcome.setupFailure { lines.append("  ✗ exploration could not start: \(reason)") }
        let failing = outcome.groups.filter { $0.knownDefect == nil }
        lines.append(failing.isEmpty ? "  no difference from the model" : "  \(failing.count) difference(s) from the model, by rule:")
        for group in outcome.groups {
            if let defect = group.knownDefect {
                lines.append("  ⚠ known defect \(defect.id): \(group.headline)")
            } else {
                lines.append("  ✗ \(group.headline)")
                for difference in group.differences.prefix(4) {
                    lines.append("      \(difference.aspect): model \(difference.model), server \(difference.server)")
                }
            }
        }
        if !outcome.coverage.isEmpty {
            lines.append("  " + coverageSummary(outcome))
            for rule in outcome.notExercised { lines.append("    not exercised: \(rule.id)") }
        }
        for note in headerNotes(outcome) { lines.append("  \(strictHeaders ? "✗" : "ℹ") \(note)\(strictHeaders ? "" : " (informational; --strict-headers fails on it)")") }
        if !outcome.createdOnServer.isEmpty {
            if outcome.deletedOnServer.count == outcome.createdOnServer.count {
                lines.append("  deleted the \(outcome.createdOnServer.count) announcement(s) exploration created")
            } else {
                lines.append("  exploration created \(outcome.createdOnServer.count) announcement(s) on the server: " + outcome.createdOnServer.joined(separator: ", "))
                if !outcome.notDeleted.isEmpty { lines.append("  could not delete: " + outcome.notDeleted.joined(separator: ", ")) }
                if outcome.deletedOnServer.isEmpty { lines.append("  (give --admin-token to delete them at the end)") }
            }
        }
        return lines
    }

    private static func coverageSummary(_ outcome: ExplorationOutcome) -> String {
        let missed = outcome.notExercised.count
        return "stated rules: \(outcome.coverage.count - missed) of \(outcome.coverage.count) exercised by the cases sent"
            + (missed == 0 ? "" : "; \(missed) not exercised")
    }

    private static func headerNotes(_ outcome: ExplorationOutcome) -> [String] {
        outcome.headersAdded.map { "the server sends \($0.name), the model does not (\($0.answers) answers)" }
            + outcome.headersRemoved.map { "the server no longer sends \($0.name), the model does (\($0.answers) answers)" }
    }
}
