import ContractKit
import ContractModel
import Foundation

/// When a rule's fault applies in time, on the layer's clock: an outage window, a shared quota or a rising failure rate.
public enum FaultSchedule: Sendable, Equatable {
    /// Every selected request inside the window gets the fault.
    case outage(OutageWindow)
    /// Selected requests past the quota get the fault (a 429 with `Retry-After` and `RateLimit-*` by default).
    case quota(RequestQuota)
    /// Selected requests get the fault with a chance that rises over time.
    case ramp(FailureRamp)

    /// The rule-file key that holds the schedule.
    public var key: String {
        switch self {
        case .outage: return "outage"
        case .quota: return "quota"
        case .ramp: return "ramp"
        }
    }

    /// Every schedule key, in the order the docs list them.
    public static let keys = ["outage", "quota", "ramp"]

    /// The schedule's value in the rule-file format.
    public var json: JSONValue {
        switch self {
        case .outage(let window): return window.json
        case .quota(let quota): return quota.json
        case .ramp(let ramp): return ramp.json
        }
    }

    /// The fault a rule with this schedule gets when it names none: 503 for an outage or a ramp, 429 for a quota.
    public var defaultFault: Fault {
        switch self {
        case .outage, .ramp: return .status(503)
        case .quota: return .status(429)
        }
    }

    /// A one-line account of where the schedule stands at `now`, for the dashboard, e.g. `outage: 12 s left`.
    func describe(_ state: FaultScheduleState, now: Date) -> String {
        switch self {
        case .outage(let window):
            if let left = window.remaining(at: now, firstCall: state.firstCall) { return "outage: open, \(Self.seconds(left)) s left" }
            guard let opens = window.opens(firstCall: state.firstCall) else { return "outage: waits for the first matching call" }
            return opens > now ? "outage: opens in \(Self.seconds(opens.timeIntervalSince(now))) s" : "outage: over"
        case .quota(let quota):
            return "quota: \(quota.limit) per \(Self.seconds(quota.windowSeconds)) s (\(quota.scope.rawValue))"
        case .ramp(let ramp):
            guard let first = state.firstCall else { return "ramp: waits for the first matching call" }
            let p = ramp.probability(after: now.timeIntervalSince(first))
            return "ramp: failure chance now \((p * 100).rounded() / 100)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        // `Int(Double)` traps past Int.max: an `at` date may lie centuries ahead, so only small whole values go through Int.
        let v = value.isFinite ? max(value, 0) : 0
        return v == v.rounded() && v < 1e15 ? String(Int(v)) : String((v * 10).rounded(.up) / 10)
    }
}

/// The running state of one rule's schedule: when its selector first matched, and its quota windows.
struct FaultScheduleState: Sendable {
    /// When the rule's selector first matched a request (the anchor of `after` outages and ramps).
    var firstCall: Date?
    var quota = QuotaLedger()

    /// Notes that the rule's selector matched a request at `now`.
    mutating func noteMatch(at now: Date) {
        if firstCall == nil { firstCall = now }
    }

    /// The fault a request reaching the rule at `now` gets under `schedule`, or nil when the schedule lets it through.
    mutating func apply(_ schedule: FaultSchedule, to fault: Fault, contract: String?, now: Date,
                        generator: inout SeededGenerator) -> Fault? {
        switch schedule {
        case .outage(let window):
            guard let left = window.remaining(at: now, firstCall: firstCall) else { return nil }
            return Self.lasting(fault, seconds: left)
        case .quota(let quota):
            let key = quota.scope == .perContract ? (contract ?? "") : ""
            guard case .exceeded(let reset) = self.quota.admit(key: key, quota: quota, now: now) else { return nil }
            guard case .status(let status, let body, var headers) = fault else { return fault }
            // The quota's own headers win: they are what a client needs to back off correctly.
            headers.merge(quota.refusalHeaders(reset: reset)) { _, computed in computed }
            return .status(status, body: body, headers: headers)
        case .ramp(let ramp):
            let elapsed = firstCall.map { now.timeIntervalSince($0) } ?? 0
            return generator.unit() < ramp.probability(after: elapsed) ? fault : nil
        }
    }

    /// The fault as it applies with `seconds` of outage left: a status says when to come back (unless the rule says
    /// so itself), and a `refuse` without its own length lasts until the window closes.
    private static func lasting(_ fault: Fault, seconds: Double) -> Fault {
        let ms = FaultRanges.millisecondsUp(seconds)
        switch fault {
        case .status(let status, let body, var headers):
            if !headers.keys.contains(where: { $0.lowercased() == "retry-after" }) {
                headers["Retry-After"] = String(FaultRanges.wholeSecondsUp(seconds))
            }
            return .status(status, body: body, headers: headers)
        case .refuse(nil): return .refuse(ms: ms)
        case .refuseAfterAnswer(nil): return .refuseAfterAnswer(ms: ms)
        default: return fault
        }
    }
}
