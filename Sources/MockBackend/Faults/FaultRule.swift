import ContractKit
import ContractModel

/// One fault rule: which requests (selector), which of their calls, and the fault they get.
public struct FaultRule: Sendable, Equatable {
    /// A name for the journal and logs; unnamed rules are called `rule N` by their position.
    public var name: String?
    /// Which requests the rule counts and may fault.
    public var selector: FaultSelector
    /// The 1-based call numbers (counted per selector) the rule applies to; nil means every call.
    public var calls: [ClosedRange<Int>]?
    /// The first call number the rule applies to.
    public var from: Int?
    /// Apply to every n-th call counted from `from` (or from 1).
    public var every: Int?
    /// The most times the rule applies before it stops matching.
    public var times: Int?
    /// The chance (0...1) the rule applies to a call that passes the other conditions.
    public var probability: Double?
    /// The seed for `probability`, so runs are reproducible; the layer's seed is used when nil.
    public var seed: UInt64?
    /// What happens to a selected request.
    public var fault: Fault
    /// When in time the rule applies (an outage window, a quota, a rising failure rate); nil: whenever the rest passes.
    public var schedule: FaultSchedule?

    /// Creates a rule.
    public init(name: String? = nil, selector: FaultSelector = FaultSelector(), calls: [ClosedRange<Int>]? = nil,
                from: Int? = nil, every: Int? = nil, times: Int? = nil, probability: Double? = nil,
                seed: UInt64? = nil, fault: Fault, schedule: FaultSchedule? = nil) {
        self.name = name
        self.selector = selector
        self.calls = calls
        self.from = from
        self.every = every
        self.times = times
        self.probability = probability
        self.seed = seed
        self.fault = fault
        self.schedule = schedule
    }

    /// Whether the rule applies to every request unconditionally (no selector, no call or chance conditions).
    public var isUnconditional: Bool {
        selector.isEmpty && calls == nil && from == nil && every == nil && times == nil && probability == nil && schedule == nil
    }

    /// Whether call number `n` (1-based, for this rule's selector) passes `calls`, `from` and `every`.
    func admitsCall(_ n: Int) -> Bool {
        if let calls, !calls.contains(where: { $0.contains(n) }) { return false }
        let start = from ?? 1
        if n < start { return false }
        if let every, every > 0, (n - start) % every != 0 { return false }
        return true
    }

    /// The rule in the rule-file format, as `GET /__spotcheck/faults` returns it.
    public var json: JSONValue {
        var o = JSONObject()
        if let name { o["name"] = .string(name) }
        if let c = selector.contract { o["contract"] = .string(c) }
        if let m = selector.method { o["method"] = .string(m) }
        if let p = selector.path { o["path"] = .string(p.description) }
        if let calls {
            o["calls"] = .array(calls.map { r in
                r.lowerBound == r.upperBound ? .number(Double(r.lowerBound))
                    : (r.upperBound == Int.max ? .string("\(r.lowerBound)-") : .string("\(r.lowerBound)-\(r.upperBound)"))
            })
        }
        if let from { o["from"] = .number(Double(from)) }
        if let every { o["every"] = .number(Double(every)) }
        if let times { o["times"] = .number(Double(times)) }
        if let probability { o["probability"] = .number(probability) }
        if let seed { o["seed"] = .number(Double(seed)) }
        if let schedule { o[schedule.key] = schedule.json }
        o["fault"] = fault.json
        return .object(o)
    }

    /// A list of rules in the rule-file format: `{"rules": [...]}`.
    public static func json(_ rules: [FaultRule]) -> JSONValue {
        .object(["rules": .array(rules.map(\.json))])
    }
}
