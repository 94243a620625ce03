import ContractModel
import Foundation

/// The live fault rules of a server: picks the fault for each request and keeps the call counters.
public final class FaultLayer: Sendable {
    private struct State {
        var rules: [FaultRule]
        var selectorCalls: [FaultSelector: Int] = [:]
        var applied: [Int] = []
        var generators: [SeededGenerator] = []
        var schedules: [FaultScheduleState] = []
    }

    private let defaultSeed: UInt64
    private let state: Locked<State>
    private let observers = Locked<[@Sendable () -> Void]>([])
    /// The time outage windows, quota windows and failure ramps are measured in.
    public let clock: any FaultClock

    /// Creates a layer with these rules; `seed` drives probabilities of rules without their own seed (random when nil);
    /// `clock` is where time-based rules read the time (a `VirtualFaultClock` makes them run in virtual time).
    public init(rules: [FaultRule] = [], seed: UInt64? = nil, clock: any FaultClock = SystemFaultClock()) {
        self.clock = clock
        defaultSeed = seed ?? UInt64.random(in: 0...UInt64.max)
        var s = State(rules: rules)
        FaultLayer.resetCounters(&s, defaultSeed: defaultSeed)
        state = Locked(s)
    }

    /// The current rules in order.
    public var rules: [FaultRule] {
        state.withLock { $0.rules }
    }

    /// Replaces every rule and starts all counters afresh.
    public func replaceRules(_ rules: [FaultRule]) {
        state.withLock { s in
            s.rules = rules
            FaultLayer.resetCounters(&s, defaultSeed: defaultSeed)
        }
        notify()
    }

    /// Adds rules after the current ones; the existing rules keep their counters, the new ones start at zero.
    public func appendRules(_ added: [FaultRule]) {
        guard !added.isEmpty else { return }
        state.withLock { s in
            for rule in added {
                let i = s.rules.count
                s.rules.append(rule)
                s.applied.append(0)
                s.schedules.append(FaultScheduleState())
                s.generators.append(SeededGenerator(seed: rule.seed ?? (defaultSeed &+ UInt64(i) &* 0x9E37_79B9)))
            }
        }
        notify()
    }

    /// Removes the rule at this 0-based position; false when there is none. The other rules keep their counters.
    @discardableResult
    public func removeRule(at index: Int) -> Bool {
        let removed = state.withLock { s -> Bool in
            guard s.rules.indices.contains(index) else { return false }
            s.rules.remove(at: index)
            s.applied.remove(at: index)
            s.schedules.remove(at: index)
            s.generators.remove(at: index)
            return true
        }
        if removed { notify() }
        return removed
    }

    /// Removes every rule `shouldRemove` picks, keeping the others' counters; answers how many went.
    @discardableResult
    public func removeRules(where shouldRemove: (FaultRule) -> Bool) -> Int {
        let removed = state.withLock { s -> Int in
            let keep = s.rules.indices.filter { !shouldRemove(s.rules[$0]) }
            let count = s.rules.count - keep.count
            s.rules = keep.map { s.rules[$0] }
            s.applied = keep.map { s.applied[$0] }
            s.schedules = keep.map { s.schedules[$0] }
            s.generators = keep.map { s.generators[$0] }
            return count
        }
        if removed > 0 { notify() }
        return removed
    }

    /// Each rule with how many times it has applied since its counters started.
    public var ruleUsage: [(rule: FaultRule, applied: Int)] {
        state.withLock { s in Array(zip(s.rules, s.applied)) }
    }

    /// Starts every call counter, `times` count and probability sequence afresh, keeping the rules.
    public func resetCounters() {
        state.withLock { s in FaultLayer.resetCounters(&s, defaultSeed: defaultSeed) }
    }

    /// Picks the fault for one request: counts the call for every selector that matches, then returns the first rule that applies.
    public func decide(method: String, path: String, contract: String?) -> FaultDecision? {
        state.withLock { s in
            if s.rules.isEmpty { return nil }
            // Read under the lock, so concurrent requests reach the quota windows in the order of their times.
            let now = clock.now
            var counted: [FaultSelector: Int] = [:]
            for rule in s.rules where counted[rule.selector] == nil && rule.selector.matches(method: method, path: path, contract: contract) {
                let n = (s.selectorCalls[rule.selector] ?? 0) + 1
                s.selectorCalls[rule.selector] = n
                counted[rule.selector] = n
            }
            for (i, rule) in s.rules.enumerated() where rule.schedule != nil && counted[rule.selector] != nil {
                s.schedules[i].noteMatch(at: now)
            }
            for (i, rule) in s.rules.enumerated() {
                guard let n = counted[rule.selector], rule.admitsCall(n) else { continue }
                if let times = rule.times, s.applied[i] >= times { continue }
                var fault = rule.fault
                if let schedule = rule.schedule {
                    guard let timed = s.schedules[i].apply(schedule, to: fault, contract: contract, now: now, generator: &s.generators[i]) else { continue }
                    fault = timed
                }
                if let p = rule.probability, s.generators[i].unit() >= p { continue }
                s.applied[i] += 1
                return FaultDecision(rule: rule.name ?? "rule \(i + 1)", fault: fault, call: n)
            }
            return nil
        }
    }

    /// Each time-based rule's position and where its schedule stands now, e.g. `outage: open, 12 s left`.
    public var scheduleStatus: [Int: String] {
        let now = clock.now
        return state.withLock { s in
            var status: [Int: String] = [:]
            for (i, rule) in s.rules.enumerated() {
                if let schedule = rule.schedule { status[i] = schedule.describe(s.schedules[i], now: now) }
            }
            return status
        }
    }

    /// The refuse rule that applies to every request, if any: it takes the server offline as soon as it is installed.
    var standingRefusal: Fault? {
        state.withLock { s in
            s.rules.first(where: { $0.isUnconditional })?.fault.kindIsRefuse
        }
    }

    /// Registers a callback run after the rules change (the server uses it to go offline or back online).
    func observe(_ callback: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(callback) }
    }

    private func notify() {
        for callback in observers.withLock({ $0 }) { callback() }
    }

    private static func resetCounters(_ s: inout State, defaultSeed: UInt64) {
        s.selectorCalls = [:]
        s.applied = Array(repeating: 0, count: s.rules.count)
        s.schedules = Array(repeating: FaultScheduleState(), count: s.rules.count)
        s.generators = s.rules.enumerated().map { i, rule in
            // Rules sharing the layer's seed still get distinct sequences, derived from their position.
            SeededGenerator(seed: rule.seed ?? (defaultSeed &+ UInt64(i) &* 0x9E37_79B9))
        }
    }
}

extension Fault {
    /// The fault itself when it is a `refuse`, else nil.
    var kindIsRefuse: Fault? {
        if case .refuse = self { return self }
        return nil
    }
}
