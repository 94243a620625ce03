import Foundation

/// Human output: one line per scenario as it finishes, failure details, and a summary.
public enum ConsoleReporter {
    /// The line for one finished scenario, followed by the failure details when it failed.
    public static func line(for result: ScenarioResult) -> String {
        let time = String(format: "%6.0f ms", result.seconds * 1000)
        switch result.status {
        case .passed:
            return "PASS  \(time)  \(result.name)" + result.readings.map { "\n      reading: " + $0 }.joined()
                + result.notes.map { "\n      weaker check: " + $0 }.joined()
        case .skipped:
            return "SKIP  \(time)  \(result.name) — \(result.skipReason ?? "skipped")"
        case .knownDefect:
            var text = "KNOWN \(time)  \(result.name) — known server defect, not drift"
            for defect in result.knownDefects {
                text += "\n      \(defect.id): the server answers \(defect.actual.status) \(defect.actual.code ?? "") instead; \(defect.reason)"
            }
            return text
        case .note:
            var text = "NOTE  \(time)  \(result.name) — differs only where the contracts state nothing (--strict fails on it)"
            text += result.assumptions.map { "\n      assumed: " + $0 }.joined()
            text += result.notes.map { "\n      " + $0 }.joined()
            return text
        case .failed:
            var text = "FAIL  \(time)  \(result.name)  (\(result.file))"
            if let message = result.failureMessage {
                text += "\n" + message.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
            }
            text += result.readings.map { "\n      reading: " + $0 }.joined()
            return text
        }
    }

    /// The closing summary; `noun` names what the results are (scenarios, or a verification's checks).
    public static func summary(_ report: RunReport, noun: String = "scenarios") -> String {
        let rate = report.seconds > 0 ? Double(report.results.count) / report.seconds : 0
        var text = "\n\(report.results.count) \(noun): \(report.passed) passed, \(report.failed) failed, \(report.skipped) skipped"
        if report.knownDefects > 0 { text += ", \(report.knownDefects) known defects" }
        if report.noted > 0 { text += ", \(report.noted) notes" }
        text += String(format: " in %.2f s (%.1f \(noun)/s)", report.seconds, rate)
        text += "\nclient: \(report.client); target: \(report.target)"
        let slow = report.results.filter(\.slowMachine).count
        if slow > 0 { text += "\n\(SlowMachineRetry.reasonPrefix): \(slow) \(noun) failed only by an unplanned client time-out and passed with the deadlines raised (skipped, not failed)" }
        let known = report.results.filter { $0.status == .knownDefect }
        if !known.isEmpty {
            text += "\nknown server defects seen (listed in known-defects.json, not failures):"
            for r in known { text += "\n  \(r.name): " + r.knownDefects.map(\.id).joined(separator: ", ") }
        }
        let noted = report.results.filter { $0.status == .note }
        if !noted.isEmpty {
            text += "\nnotes (the server differs only where the contracts state nothing; not failures, --strict fails on them):"
            for r in noted { text += "\n  \(r.name): assumed " + r.assumptions.joined(separator: "; ") }
        }
        for defect in report.unseenKnownDefects {
            text += "\n!! KNOWN DEFECT NO LONGER SEEN: \(defect.id) (\(defect.checkName)): the server now answers as documented; remove it from the list (\(defect.file))"
            text += report.strictKnownDefects ? " [fails under --strict]" : ""
        }
        for defect in report.expiredKnownDefects {
            text += "\n!! KNOWN DEFECT EXPIRED: \(defect.id) expired on \(defect.expires ?? "?") and excuses nothing; fix the server or renew the entry with a reason"
        }
        let failed = report.results.filter { $0.status == .failed }
        if !failed.isEmpty {
            text += "\nfailed:"
            for r in failed {
                let more = r.failures.count > 1 ? " (and \(r.failures.count - 1) more failed step\(r.failures.count > 2 ? "s" : ""))" : ""
                text += "\n  \(r.name) (\(r.file)): \(r.failure?.headline ?? "failed")\(more)"
            }
        }
        return text
    }
}
