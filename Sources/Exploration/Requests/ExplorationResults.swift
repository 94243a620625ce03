import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// Turns an exploration's outcome into the report shape `verify` writes (console, JUnit, JSON): one result per rule,
/// named `explore › …` and tagged `exploration`, so a report tells exploration's differences from the examples'.
public enum ExplorationResults {
    /// The tag every exploration result carries (example results carry `examples`).
    public static let tag = "exploration"

    /// One result per difference group, one for a setup failure, and one for header changes (informational unless
    /// `strictHeaders`, then failed). A group where the model assumed is a note (status `note`, naming the assumptions),
    /// and a failure under `strict`.
    public static func results(_ outcome: ExplorationOutcome, strictHeaders: Bool, strict: Bool = false) -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        if let reason = outcome.setupFailure {
            var result = ScenarioResult(name: "explore › setup", file: "contracts", tags: [tag], status: .failed, duration: outcome.duration)
            result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                             mismatches: [Mismatch("exploration", expected: "the run's records created on the server and the model", actual: reason)])
            results.append(result)
        }
        for group in outcome.groups {
            let status: ScenarioResult.Status = group.knownDefect != nil ? .knownDefect : group.isNote && !strict ? .note : .failed
            var result = ScenarioResult(name: "explore › \(group.route): \(group.rule)", file: "contracts", tags: [group.route, tag],
                                        status: status, duration: .zero)
            result.notes = [group.headline, "first generated request: \(group.firstRequest)", "shrunk in \(group.shrinkTries) tries"]
                + group.walk.map { "walk step \($0)" }
            result.assumptions = group.isNote ? group.verdict.assumptions : []
            if let defect = group.knownDefect {
                result.knownDefects = [defect]
            } else if status == .failed {
                var mismatches = group.differences.map { Mismatch($0.aspect, expected: "\($0.model) (the model)", actual: $0.server) }
                if group.isNote {
                    // Failed only because of --strict: the failure says so, and names what the model assumed.
                    mismatches.append(Mismatch("assumption", expected: "an answer the contracts state (--strict)",
                                               actual: "the model assumed: " + group.verdict.assumptions.joined(separator: "; ")))
                }
                result.failure = ScenarioFailure(
                    stepNumber: nil, action: nil, pointer: nil, mismatches: mismatches,
                    journalExcerpt: group.walk.map { "walk step \($0)" }
                        + ["minimal request: \(group.minimalRequest)", "\(group.oracle) → \(group.model)", "server → \(group.server)",
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
        let stated = statedHeaderLines(outcome)
        if !stated.isEmpty {
            var result = ScenarioResult(name: "explore › headers the service file states", file: "contracts", tags: [tag], status: .failed, duration: .zero)
            result.notes = stated
            result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: nil,
                                             mismatches: stated.map { Mismatch("headers", expected: "sent on every answer (service.json)", actual: $0) })
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
    public static func consoleLines(_ outcome: ExplorationOutcome, strictHeaders: Bool, strict: Bool = false) -> [String] {
        var lines = ["explored with seed \(outcome.seed): \(outcome.casesSent) generated requests "
            + "(\(min(outcome.casesSent, outcome.systematicCases)) of \(outcome.systematicCases) systematic, \(outcome.walkSteps) in \(outcome.walks) walk(s), the rest random pairs; +\(outcome.shrinkRequests) to shrink) "
            + "in \(String(format: "%.1f", Double(outcome.duration.components.seconds) + Double(outcome.duration.components.attoseconds) / 1e18)) s, "
            + "each sent to the server and the \(outcome.oracle)"]
        if outcome.oracle == "baseline" {
            lines.append("  baseline noise (header values two identical reads of the baseline differ in, never a change): "
                + (outcome.baselineNoise.isEmpty ? "none" : outcome.baselineNoise.joined(separator: ", ")))
        }
        if let reason = outcome.setupFailure { lines.append("  ✗ exploration could not start: \(reason)") }
        let failing = outcome.groups.filter(\.isFailure)
        let noted = outcome.groups.filter(\.isNote)
        var counts = failing.isEmpty && noted.isEmpty ? "  no difference from the \(outcome.oracle)" : "  \(failing.count) difference(s) from the \(outcome.oracle), by rule"
        if !noted.isEmpty {
            counts += outcome.oracle == "baseline" ? ", and \(noted.count) change(s) no contract states (failed unless --accept lists them)"
                : ", and \(noted.count) where the contracts state nothing (notes\(strict ? ", failed by --strict" : ""))"
        }
        lines.append(failing.isEmpty && noted.isEmpty ? counts : counts + ":")
        for group in outcome.groups {
            if let defect = group.knownDefect {
                lines.append("  ⚠ known defect \(defect.id): \(group.headline)")
                continue
            }
            lines.append(group.isNote ? "  \(strict ? "✗" : "≈") \(group.oracle == "baseline" ? "change" : "note"): \(group.headline)" : "  ✗ \(group.headline)")
            for difference in group.differences.prefix(4) {
                lines.append("      \(difference.aspect): \(group.oracle) \(difference.model), server \(difference.server)")
            }
            for assumption in group.verdict.assumptions.prefix(4) { lines.append("      assumed: \(assumption)") }
            for step in group.walk { lines.append("      walk step \(step)") }
        }
        if !outcome.coverage.isEmpty {
            lines.append("  " + coverageSummary(outcome))
            for rule in outcome.notExercised { lines.append("    not exercised: \(rule.id)") }
        }
        for line in statedHeaderLines(outcome) { lines.append("  ✗ \(line)") }
        for note in headerNotes(outcome) { lines.append("  \(strictHeaders ? "✗" : "ℹ") \(note)\(strictHeaders ? "" : " (informational; --strict-headers fails on it)")") }
        if !outcome.createdOnServer.isEmpty {
            if outcome.deletedOnServer.count == outcome.createdOnServer.count {
                lines.append("  deleted the \(outcome.createdOnServer.count) record(s) exploration created")
            } else {
                lines.append("  exploration created \(outcome.createdOnServer.count) record(s) on the server: " + outcome.createdOnServer.joined(separator: ", "))
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
            + outcome.headersRemoved.filter { !outcome.statedHeaders.contains($0.name) }
                .map { "the server no longer sends \($0.name), the model does (\($0.answers) answers)" }
    }

    private static func statedHeaderLines(_ outcome: ExplorationOutcome) -> [String] {
        outcome.statedHeadersRemoved.map { "the server no longer sends \($0.name), which the service file states (\($0.answers) answers)" }
    }
}
