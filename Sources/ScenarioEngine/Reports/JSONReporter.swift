import ContractKit
import ContractModel
import Foundation

/// The machine-readable report of `--json FILE`.
public enum JSONReporter {
    /// The report as JSON (keys in a fixed order).
    public static func document(_ report: RunReport) -> JSONValue {
        let results: [JSONValue] = report.results.map { r in
            var o: JSONObject = [
                "name": .string(r.name), "file": .string(r.file), "tags": .array(r.tags.map { .string($0) }),
                "status": .string(r.status.rawValue), "durationMs": .number((r.seconds * 1000).rounded()), "stepsRun": .number(Double(r.stepsRun)),
            ]
            if let reason = r.skipReason { o["skipReason"] = .string(reason) }
            if !r.knownDefects.isEmpty { o["knownDefects"] = .array(r.knownDefects.map(Self.entry)) }
            if !r.notes.isEmpty { o["notes"] = .array(r.notes.map { .string($0) }) }
            if !r.assumptions.isEmpty { o["assumptions"] = .array(r.assumptions.map { .string($0) }) }
            if !r.readings.isEmpty { o["readings"] = .array(r.readings.map { .string($0) }) }
            if let f = r.failure {
                o["failure"] = Self.failure(f)
                o["failures"] = .array((r.failures.isEmpty ? [f] : r.failures).map(Self.failure))
            }
            return .object(o)
        }
        return [
            "client": .string(report.client), "target": .string(report.target),
            "summary": [
                "total": .number(Double(report.results.count)), "passed": .number(Double(report.passed)),
                "failed": .number(Double(report.failed)), "skipped": .number(Double(report.skipped)),
                "knownDefects": .number(Double(report.knownDefects)), "notes": .number(Double(report.noted)),
                "durationMs": .number((report.seconds * 1000).rounded()),
            ],
            "results": .array(results),
            "knownDefectsNoLongerSeen": .array(report.unseenKnownDefects.map(Self.entry)),
            "knownDefectsExpired": .array(report.expiredKnownDefects.map(Self.entry)),
            "strict": .bool(report.strictKnownDefects),
        ]
    }

    /// One failed step: where, each mismatch with its own reason, the journal excerpt.
    static func failure(_ f: ScenarioFailure) -> JSONValue {
        var failure: JSONObject = [:]
        failure["step"] = f.stepNumber.map { .number(Double($0)) } ?? .null
        failure["action"] = f.action.map { .string($0) } ?? .null
        failure["pointer"] = f.pointer.map { .string($0) } ?? .null
        failure["mismatches"] = .array(f.mismatches.map { m in
            var o: JSONObject = ["subject": .string(m.subject), "expected": .string(m.expected), "actual": .string(m.actual)]
            if let explanation = m.explanation { o["explanation"] = .string(explanation) }
            if let why = m.why { o["why"] = .string(why) }
            return .object(o)
        })
        failure["because"] = f.because.map { .string($0) } ?? .null
        failure["journal"] = .array(f.journalExcerpt.map { .string($0) })
        failure["message"] = .string(f.message)
        if let stopped = f.stoppedEarly { failure["stoppedEarly"] = .string(stopped) }
        if let tail = f.clientStderr { failure["clientStderr"] = .string(tail) }
        if let unread = f.unreadAnswer {
            var o: JSONObject = ["record": .string(unread.record), "unusualValues": .array(unread.unusualValues.map { .string($0) })]
            if let path = unread.decodingPath { o["decodingPath"] = .string(path) }
            failure["unreadAnswer"] = .object(o)
        }
        return .object(failure)
    }

    /// One known-defect entry as reports show it.
    static func entry(_ defect: KnownDefect) -> JSONValue {
        var entry = JSONObject([("id", .string(defect.id))])
        // A service-wide entry names its layer instead of one contract's example.
        if let contractID = defect.contractID, let example = defect.example {
            entry["contract"] = .string(contractID)
            entry["example"] = .string(example)
        }
        if let layer = defect.serviceLayer { entry["service"] = .string(layer.rawValue) }
        entry["reason"] = .string(defect.reason)
        entry["actualStatus"] = .number(Double(defect.actual.status))
        entry["file"] = .string(defect.file)
        return .object(entry)
    }
}
