import ContractKit
import Foundation

/// What an exploration did: seed, sessions, rules exercised, and the counterexample if one was found.
public struct ExplorationReport: Sendable {
    /// The seed every session came from.
    public var seed: UInt64
    /// The client's description.
    public var client: String
    /// How many sessions ran to the end.
    public var sessions: Int
    /// How many steps those sessions ran.
    public var steps: Int
    /// How many steps checked each rule.
    public var rules: [ModelRule: Int]
    /// Sessions the driver declined (an optional action it answers `unsupported`), by reason; they count as run, not passed.
    public var skipped: [String: Int] = [:]
    /// The first failing session, shrunk; `nil` when the client passed every session.
    public var counterexample: Counterexample?
    /// Wall-clock time of the exploration (shrinking included).
    public var duration: Duration

    /// The duration in seconds.
    public var seconds: Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }

    /// Sessions per second (shrinking included when there was a counterexample).
    public var rate: Double { seconds > 0 ? Double(sessions) / seconds : 0 }

    /// 1 when a counterexample was found, else 0.
    public var exitCode: Int32 { counterexample == nil ? 0 : 1 }

    /// The console report.
    public var text: String {
        var lines = ["explore: seed \(seed), \(sessions) session\(sessions == 1 ? "" : "s") (\(steps) steps) against \(client) in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", rate)) sessions/s)"]
        for (reason, n) in skipped.sorted(by: { $0.key < $1.key }) {
            lines.append("skipped \(n) session\(n == 1 ? "" : "s"): \(reason); their steps were not checked")
        }
        lines.append("rules exercised (steps that checked each):")
        for rule in ModelRule.allCases {
            let n = rules[rule] ?? 0
            lines.append("  \(String(n).leftPadded(6))  \(rule.rawValue)\(n == 0 ? "  (not reached)" : "")")
        }
        if let c = counterexample {
            lines.append("COUNTEREXAMPLE: session \(c.sessionIndex) breaks \(c.failure.rule.rawValue): \(c.failure.rule.statement)")
            lines.append("shrunk from \(c.steps.original) to \(c.steps.shrunk) steps (\(c.shrinkRuns) shrink runs); replay the saved file with spotcheck run --scenarios DIR")
            lines.append(c.failure.message)
            lines.append("scenario:")
            lines.append(c.document.serialized(pretty: true))
        } else {
            lines.append("no counterexample")
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON for machines.
    public var json: JSONValue {
        var root: JSONObject = [
            "seed": .string(String(seed)), "client": .string(client), "sessions": .number(Double(sessions)), "steps": .number(Double(steps)),
            "sessionsPerSecond": .number((rate * 10).rounded() / 10),
            "skipped": .object(JSONObject(skipped.sorted(by: { $0.key < $1.key }).map { ($0.key, .number(Double($0.value))) })),
            "rules": .object(JSONObject(ModelRule.allCases.map { ($0.rawValue, .number(Double(rules[$0] ?? 0))) })),
        ]
        if let c = counterexample {
            root["counterexample"] = [
                "session": .number(Double(c.sessionIndex)), "rule": .string(c.failure.rule.rawValue), "statement": .string(c.failure.rule.statement),
                "headline": .string(c.failure.headline), "message": .string(c.failure.message),
                "originalSteps": .number(Double(c.steps.original)), "shrunkSteps": .number(Double(c.steps.shrunk)), "scenario": c.document,
            ]
        }
        return .object(root)
    }

    /// The report as JUnit XML: one test case per rule, the counterexample's rule failing.
    public var junit: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = counterexample == nil ? 0 : 1
        out += "<testsuite name=\"spotcheck explore seed \(seed)\" tests=\"\(ModelRule.allCases.count)\" failures=\"\(failures)\">\n"
        for rule in ModelRule.allCases {
            out += "  <testcase classname=\"explore\" name=\"\(XMLText.escape(rule.rawValue))\">"
            if let c = counterexample, c.failure.rule == rule {
                out += "\n    <failure message=\"\(XMLText.escape(c.failure.headline))\">\(XMLText.escape(c.failure.message))</failure>\n  "
            } else if (rules[rule] ?? 0) == 0 {
                out += "<skipped message=\"not reached by \(sessions) sessions\"/>"
            }
            out += "</testcase>\n"
        }
        out += "</testsuite>\n"
        return out
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
