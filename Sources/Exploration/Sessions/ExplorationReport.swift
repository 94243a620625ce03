import CIReports
import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// What an exploration did: seed, sessions, rules exercised, every distinct bug (shrunk and confirmed), and the
/// sessions a slow machine failed.
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
    /// Every distinct confirmed bug, by rule and then by the first session that hit it.
    public var groups: [FailureGroup] = []
    /// Sessions where the client timed out with no timing fault planned, run again with the deadlines raised.
    public var retriedSessions = 0
    /// Of those, the ones that then passed: the machine was too slow, not the client wrong.
    public var slowMachineSessions = 0
    /// Checks that failed in a session but whose shrunk session did not fail the same way three times in a row.
    public var unconfirmed: [String] = []
    /// The slice of the seeded budget this run explored, `nil` for all of it.
    public var shard: Shard?
    /// Wall-clock time of the exploration (shrinking included).
    public var duration: Duration

    /// A report with these values and no failures.
    public init(seed: UInt64, client: String, sessions: Int, steps: Int, rules: [ModelRule: Int], duration: Duration) {
        self.seed = seed
        self.client = client
        self.sessions = sessions
        self.steps = steps
        self.rules = rules
        self.duration = duration
    }

    /// The first group's shrunk sessions, `nil` when the client passed every session.
    public var counterexample: Counterexample? { groups.first?.counterexample }

    /// The duration in seconds.
    public var seconds: Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }

    /// Sessions per second (shrinking included).
    public var rate: Double { seconds > 0 ? Double(sessions) / seconds : 0 }

    /// 1 when a confirmed counterexample was found, else 0.
    public var exitCode: Int32 { groups.isEmpty ? 0 : 1 }

    /// The console report.
    public var text: String {
        let of = shard.map { " (shard \($0) of the seeded budget)" } ?? ""
        var lines = ["explore: seed \(seed)\(of), \(sessions) session\(sessions == 1 ? "" : "s") (\(steps) steps) against \(client) in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", rate)) sessions/s)"]
        for (reason, n) in skipped.sorted(by: { $0.key < $1.key }) {
            lines.append("skipped \(n) session\(n == 1 ? "" : "s"): \(reason); their steps were not checked")
        }
        lines.append("retried \(retriedSessions) session\(retriedSessions == 1 ? "" : "s") with the deadlines raised (the client timed out where no fault that ends in a time-out was planned)")
        if slowMachineSessions > 0 {
            lines.append("\(SlowMachineRetry.reasonPrefix): \(slowMachineSessions) session\(slowMachineSessions == 1 ? "" : "s") (they passed with the deadlines raised; not client bugs)")
        }
        for check in unconfirmed {
            lines.append("not confirmed (the shrunk session did not fail the same way on four of eight fresh replays, so it is not reported as a bug): \(check)")
        }
        lines.append("rules exercised (steps that checked each):")
        for rule in ModelRule.allCases {
            let n = rules[rule] ?? 0
            lines.append("  \(String(n).leftPadded(6))  \(rule.rawValue)\(n == 0 ? "  (not reached)" : "")")
        }
        if groups.isEmpty {
            lines.append("no counterexample")
        } else {
            lines.append("\(groups.count) distinct counterexample\(groups.count == 1 ? "" : "s"), each shrunk and confirmed on fresh replays:")
        }
        for (n, g) in groups.enumerated() {
            lines.append("COUNTEREXAMPLE \(n + 1) of \(groups.count): breaks \(g.rule.rawValue): \(g.rule.statement)")
            lines.append("  hit by \(g.sessions) session\(g.sessions == 1 ? "" : "s"); replay: \(g.replay) (session \(g.sessionIndex)); shrunk from \(g.originalSteps) to \(g.shrunkSteps) step\(g.shrunkSteps == 1 ? "" : "s") (\(g.shrinkRuns) shrink runs); --save writes \(g.fileName)")
            lines.append(contentsOf: g.message.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 })
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON for machines (`spotcheck merge-reports` reads it back).
    public var json: JSONValue {
        var root: JSONObject = [
            "seed": .string(String(seed)), "client": .string(client), "sessions": .number(Double(sessions)), "steps": .number(Double(steps)),
            "sessionsPerSecond": .number((rate * 10).rounded() / 10), "seconds": .number((seconds * 10).rounded() / 10),
            "skipped": .object(JSONObject(skipped.sorted(by: { $0.key < $1.key }).map { ($0.key, .number(Double($0.value))) })),
            "rules": .object(JSONObject(ModelRule.allCases.map { ($0.rawValue, .number(Double(rules[$0] ?? 0))) })),
            "retriedSessions": .number(Double(retriedSessions)), "slowMachineSessions": .number(Double(slowMachineSessions)),
            "unconfirmed": .array(unconfirmed.map { .string($0) }),
            "confirmedCounterexamples": .number(Double(groups.count)),
            "groups": .array(groups.map(\.json)),
        ]
        if let shard { root["shard"] = .string(shard.description) }
        return .object(root)
    }

    /// A report read back from its JSON; `nil` when it is not one.
    public init?(json: JSONValue) {
        guard let seed = json["seed"]?.stringValue.flatMap(UInt64.init), let client = json["client"]?.stringValue,
              let sessions = json["sessions"]?.numberValue, let steps = json["steps"]?.numberValue,
              let ruleCounts = json["rules"]?.objectValue, let groups = json["groups"]?.arrayValue else { return nil }
        var rules: [ModelRule: Int] = [:]
        for (name, value) in ruleCounts { if let rule = ModelRule(rawValue: name), let n = value.numberValue { rules[rule] = Int(n) } }
        let seconds = json["seconds"]?.numberValue ?? 0
        self.init(seed: seed, client: client, sessions: Int(sessions), steps: Int(steps), rules: rules, duration: .milliseconds(Int(seconds * 1000)))
        for (reason, value) in json["skipped"]?.objectValue ?? [:] { skipped[reason] = Int(value.numberValue ?? 0) }
        self.groups = groups.compactMap(FailureGroup.init(json:))
        guard self.groups.count == groups.count else { return nil }
        retriedSessions = Int(json["retriedSessions"]?.numberValue ?? 0)
        slowMachineSessions = Int(json["slowMachineSessions"]?.numberValue ?? 0)
        unconfirmed = json["unconfirmed"]?.arrayValue?.compactMap(\.stringValue) ?? []
        shard = json["shard"]?.stringValue.flatMap(Shard.init(parsing:))
    }

    /// The report as JUnit XML: one test case per rule, failing with each group of that rule. The suite is named after
    /// the seed and shard, so the files of several runners merge without clashing.
    public var junit: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failing = Set(groups.map(\.rule))
        let name = "spotcheck explore seed \(seed)" + (shard.map { " shard \($0.index) of \($0.count)" } ?? "")
        out += "<testsuite name=\"\(XMLText.escape(name))\" tests=\"\(ModelRule.allCases.count)\" failures=\"\(failing.count)\">\n"
        for rule in ModelRule.allCases {
            out += "  <testcase classname=\"explore\" name=\"\(XMLText.escape(rule.rawValue))\">"
            let mine = groups.filter { $0.rule == rule }
            if let first = mine.first {
                let text = mine.map { "\($0.headline) (\($0.sessions) sessions; \($0.replay), session \($0.sessionIndex))\n\($0.message)" }.joined(separator: "\n\n")
                out += "\n    <failure message=\"\(XMLText.escape(first.headline))\">\(XMLText.escape(text))</failure>\n  "
            } else if (rules[rule] ?? 0) == 0 {
                out += "<skipped message=\"not reached by \(sessions) sessions\"/>"
            }
            out += "</testcase>\n"
        }
        out += "</testsuite>\n"
        return out
    }

    /// Several runners' reports as one: sessions, steps and rule counts added up, groups joined by the check they
    /// broke (the representative is the lowest seed and session), in the same order a single run reports them.
    public static func merged(_ reports: [ExplorationReport]) -> ExplorationReport {
        let seeds = Set(reports.map(\.seed))
        var merged = ExplorationReport(seed: seeds.count == 1 ? seeds.first ?? 0 : reports.map(\.seed).min() ?? 0,
                                       client: Set(reports.map(\.client)).sorted().joined(separator: ", "),
                                       sessions: reports.map(\.sessions).reduce(0, +), steps: reports.map(\.steps).reduce(0, +), rules: [:],
                                       duration: reports.map(\.duration).max() ?? .zero)
        var groups: [String: FailureGroup] = [:]
        for report in reports {
            for (rule, n) in report.rules { merged.rules[rule, default: 0] += n }
            for (reason, n) in report.skipped { merged.skipped[reason, default: 0] += n }
            merged.retriedSessions += report.retriedSessions
            merged.slowMachineSessions += report.slowMachineSessions
            for group in report.groups {
                guard var existing = groups[group.signature] else { groups[group.signature] = group; continue }
                let total = existing.sessions + group.sessions
                if (group.seed, group.sessionIndex) < (existing.seed, existing.sessionIndex) { existing = group }
                existing.sessions = total
                groups[group.signature] = existing
            }
        }
        merged.unconfirmed = Array(Set(reports.flatMap(\.unconfirmed)).subtracting(groups.keys)).sorted()
        merged.groups = ordered(Array(groups.values))
        return merged
    }

    /// Groups in report order: by rule, then by the first session that hit them.
    static func ordered(_ groups: [FailureGroup]) -> [FailureGroup] {
        groups.sorted { ($0.rule, $0.seed, $0.sessionIndex, $0.signature) < ($1.rule, $1.seed, $1.sessionIndex, $1.signature) }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
