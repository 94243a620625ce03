import ContractKit
import ContractModel
import Foundation

/// Reads a rule's time-based key (`outage`, `quota` or `ramp`), with errors naming the file, the JSON pointer and what
/// was expected; also rejects conditions that make no sense together with it.
struct FaultScheduleReader {
    let file: String

    /// The schedule of rule object `o` at pointer `p`, or nil when it has none.
    func schedule(_ o: JSONObject, at p: String) throws(FaultRuleError) -> FaultSchedule? {
        let present = FaultSchedule.keys.filter { o[$0] != nil }
        guard let key = present.first else { return nil }
        if present.count > 1 {
            throw error("\(p)/\(present[1])", "a rule has at most one of \"outage\", \"quota\" and \"ramp\"; write two rules instead")
        }
        let at = "\(p)/\(key)"
        guard let value = o[key]?.objectValue else { throw error(at, "expected an object, e.g. \(Self.examples[key] ?? "{}")") }
        switch key {
        case "outage":
            try rejectUnknown(value, allowed: ["at", "after", "seconds"], at: at)
            if value["at"] != nil, value["after"] != nil {
                throw error("\(at)/after", "an outage starts either \"at\" a time or \"after\" the first matching call, not both")
            }
            var start = OutageWindow.Start.afterFirstCall(seconds: 0)
            if let when = value["at"] {
                guard let text = when.stringValue, let date = Self.date(text) else {
                    throw error("\(at)/at", "expected an ISO 8601 time with a zone, e.g. \"2026-11-25T15:00:00Z\"")
                }
                start = .at(date)
            } else if value["after"] != nil {
                start = .afterFirstCall(seconds: try seconds(value, "after", at: at, allowZero: true))
            }
            return .outage(OutageWindow(start: start, seconds: try seconds(value, "seconds", at: at, allowZero: false)))
        case "quota":
            try rejectUnknown(value, allowed: ["limit", "windowSeconds", "scope"], at: at)
            for condition in ["calls", "from", "every", "times", "probability"] where o[condition] != nil {
                throw error("\(p)/\(condition)", "a quota rule counts every request its selector sends it, so it cannot also have \"\(condition)\"")
            }
            guard let limitValue = value["limit"] else { throw error(at, "missing \"limit\": the requests allowed per window") }
            guard let limit = limitValue.intValue, limit >= 1, limit <= FaultRanges.maxCount else {
                throw error("\(at)/limit", "expected a whole number of requests from 1 to \(FaultRanges.maxCount) (found \(limitValue.serialized()))")
            }
            var scope = RequestQuota.Scope.shared
            if let s = value["scope"] {
                guard let text = s.stringValue, let parsed = RequestQuota.Scope(rawValue: text) else {
                    throw error("\(at)/scope", "expected \"shared\" (one allowance across contracts) or \"perContract\"")
                }
                scope = parsed
            }
            return .quota(RequestQuota(limit: limit, windowSeconds: try seconds(value, "windowSeconds", at: at, allowZero: false), scope: scope))
        default:
            try rejectUnknown(value, allowed: ["from", "to", "seconds"], at: at)
            if o["probability"] != nil {
                throw error("\(p)/probability", "a ramp sets the chance itself; remove \"probability\" (the rule's \"seed\" still applies)")
            }
            return .ramp(FailureRamp(from: try chance(value, "from", at: at), to: try chance(value, "to", at: at),
                                     seconds: try seconds(value, "seconds", at: at, allowZero: false)))
        }
    }

    private static let examples = [
        "outage": "{\"after\": 0, \"seconds\": 30}", "quota": "{\"limit\": 10, \"windowSeconds\": 60}",
        "ramp": "{\"from\": 0, \"to\": 0.5, \"seconds\": 60}",
    ]

    private static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private func seconds(_ o: JSONObject, _ key: String, at p: String, allowZero: Bool) throws(FaultRuleError) -> Double {
        guard let value = o[key] else { throw error(p, "missing \"\(key)\": a number of seconds") }
        let low = allowZero ? "of at least 0 and" : "greater than 0 and"
        guard let n = value.numberValue, n.isFinite, allowZero ? n >= 0 : n > 0, n <= FaultRanges.maxSeconds else {
            throw error("\(p)/\(key)", "expected a number of seconds \(low) at most \(Int(FaultRanges.maxSeconds)) (365 days) (found \(value.serialized()))")
        }
        return n + 0 // -0 becomes 0, so the rule reads back as written

    }

    private func chance(_ o: JSONObject, _ key: String, at p: String) throws(FaultRuleError) -> Double {
        guard let value = o[key] else { throw error(p, "missing \"\(key)\": a chance from 0 to 1") }
        guard let n = value.numberValue, n >= 0, n <= 1 else {
            throw error("\(p)/\(key)", "expected a chance from 0 to 1 (found \(value.serialized()))")
        }
        return n
    }

    private func rejectUnknown(_ o: JSONObject, allowed: [String], at p: String) throws(FaultRuleError) {
        for key in o.keys where !allowed.contains(key) {
            let escaped = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            throw error("\(p)/\(escaped)", "unknown key \"\(key)\"; expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    private func error(_ pointer: String, _ message: String) -> FaultRuleError {
        FaultRuleError(file: file, pointer: pointer, message: message)
    }
}
