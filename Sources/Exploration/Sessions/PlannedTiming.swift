import ContractKit
import ContractModel
import MockBackend

/// A time-based fault the explorer plans (docs/faults.md "Time-based rules"). A session's scenario runs in virtual time
/// that no step advances, so each one fails a predictable run of calls: every call of its contract from `call` on.
public enum PlannedTiming: Sendable, Equatable, Hashable {
    /// The backend is down (503 with `Retry-After`) for `seconds` from the contract's first call; calls from `call` on fail.
    case outage(seconds: Int)
    /// A quota of `call` requests per `windowSeconds` on the contract: every call after `call` gets 429.
    case quota(windowSeconds: Int)
}

extension PlannedFault {
    /// Whether the plan fails call `n` of its contract: that call alone, every call from `call` on in an outage,
    /// every call after `call` past a quota.
    public func covers(call n: Int) -> Bool {
        switch timing {
        case nil: return n == call
        case .outage: return n >= call
        case .quota: return n > call
        }
    }

    /// The time-based rule as a scenario file writes it.
    func timedRule(_ timing: PlannedTiming) -> JSONValue {
        switch timing {
        case .outage(let seconds):
            return ["name": .string("\(contract) down for \(seconds) s from call \(call)"), "contract": .string(contract),
                    "calls": [.string("\(call)-")], "outage": ["after": 0, "seconds": .number(Double(seconds))]]
        case .quota(let window):
            return ["name": .string("\(contract) quota of \(call) per \(window) s"), "contract": .string(contract),
                    "quota": ["limit": .number(Double(call)), "windowSeconds": .number(Double(window))]]
        }
    }
}

extension SessionGenerator {
    /// Some sessions meet an outage or a quota on one step, from their own draws so every other part of the session
    /// stays as it was. The timed rule goes first: a quota counts only the requests that reach it.
    func addTimedFault(to session: inout Session, _ index: Int) {
        var d = Draw(seed: (seed ^ 0x7153_D0E5_0A) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        guard d.chance(0.12) else { return }
        let step = d.pick([FlowCalls.Step.create, .upload])
        let planned: PlannedFault
        if d.chance(0.5) {
            planned = PlannedFault(step, of: form.calls, call: d.pick([1, 1, 2]), kind: .status(503), timing: .outage(seconds: d.pick([5, 30, 120])))
        } else {
            planned = PlannedFault(step, of: form.calls, call: d.pick([1, 1, 2]), kind: .status(429), timing: .quota(windowSeconds: d.pick([10, 60])))
        }
        session.faults.insert(planned, at: 0)
    }
}
