import ContractKit
import ContractModel
import MockBackend
import ScenarioEngine

/// A fault the session's backend injects into one call of one step of the submission.
public struct PlannedFault: Sendable, Equatable, Hashable {
    /// The catalogue's kinds the explorer schedules (docs/faults.md), with their parameters.
    public enum Kind: Sendable, Equatable, Hashable {
        /// An HTTP error status.
        case status(Int)
        /// Latency, then the normal answer.
        case delay(ms: Int)
        /// Read the request, never answer (the client's timeout ends it).
        case stall
        /// Close without a response.
        case drop
        /// TCP reset.
        case reset
        /// Headers and part of the body, then close.
        case truncate
        /// A 2xx body that is not JSON.
        case malformed
        /// The body dripped slowly, then complete.
        case slowBody
        /// The server is unreachable (its port refuses connections) from the start, until a `serverBack` lifts it; `call` is unused.
        case refuse
        /// Create call `call` is answered, then the server is unreachable (the upload meets a refused connect) until lifted.
        case refuseAfterAnswer
        /// The normal answer after `percent` % of the client's request timeout (`SeedModel.timingTimeoutMs`): a `delay`.
        case lateAnswer(percent: Int)
        /// The answer's headers and first bytes at once, the rest of its body in pieces each `percent` % of the client's
        /// request timeout later: a `slowBody` whose pauses are that long.
        case slowAnswer(percent: Int)
        /// The backend's normal handling and status, with this body instead of its own (`malformed` with a body): an
        /// answer varied where the seeds promise only the status (`AnswerBodies`), so the call still succeeds.
        case otherBody(String)
    }

    /// The step of the flow whose call fails: the create or the upload of the submission, or the details' read.
    public var step: FlowCalls.Step
    /// That step's contract id, as the form's calls name it.
    public var contract: String
    /// Which call of that contract (1-based, across attempts).
    public var call: Int
    /// What happens to it.
    public var kind: Kind
    /// For an outage or a quota: the fault then hits every call from `call` on (PlannedTiming.swift).
    public var timing: PlannedTiming?

    /// A fault on `call` of `step`'s contract in `calls` (from `call` on, when `timing` makes it time-based).
    public init(_ step: FlowCalls.Step, of calls: FlowCalls, call: Int, kind: Kind, timing: PlannedTiming? = nil) {
        self.step = step
        contract = calls.contract(step)
        self.call = call
        self.kind = kind
        self.timing = timing
    }

    /// Whether the call fails for the client (delay and slowBody end in the normal answer).
    public var fails: Bool {
        switch kind {
        // A refused server fails every request until lifted, not one call: the model keeps that state itself.
        case .delay, .slowBody, .refuse, .refuseAfterAnswer, .otherBody: return false
        // A late answer fails for certain only once it is far past the timeout; nearer, either outcome is possible.
        case .lateAnswer(let percent), .slowAnswer(let percent): return percent >= Self.certainTimeoutPercent
        default: return true
        }
    }

    /// From this share of the client's timeout on, a late answer is certain to time out, however busy the machine.
    public static let certainTimeoutPercent = 150
    /// Up to this share of the client's timeout, a late answer is certain to arrive in time, however busy the machine.
    public static let certainInTimePercent = 50

    /// Whether the call may succeed or time out depending on the machine's speed (a late answer near the timeout): the
    /// seeds allow either, and the model accepts both.
    public var racesTheTimeout: Bool {
        switch kind {
        case .lateAnswer(let percent): return percent > Self.certainInTimePercent && percent < Self.certainTimeoutPercent
        // A create answer is dripped in several pieces, each after the pause: its total may pass the timeout even at
        // 50 %, which times out a client that bounds the whole exchange but not one that bounds the silence.
        case .slowAnswer(let percent):
            return percent < Self.certainTimeoutPercent && (step != .upload || percent > Self.certainInTimePercent)
        default: return false
        }
    }

    /// Whether the backend handles the request (stores the announcement or the photo) whatever the fault then does to
    /// its answer (docs/faults.md "reaches the backend"); a late answer the client gave up on is dropped unhandled.
    public var reachesBackend: Bool {
        switch kind {
        case .delay, .truncate, .malformed, .slowBody, .refuseAfterAnswer, .slowAnswer, .otherBody: return true
        case .status, .stall, .drop, .reset, .refuse, .lateAnswer: return false
        }
    }

    /// Whether the fault is timed against the client's timeout (the session then runs with `SeedModel.timingTimeoutMs`).
    public var isTimed: Bool {
        switch kind {
        case .lateAnswer, .slowAnswer: return true
        default: return false
        }
    }

    /// The catalogue's fault this plan injects, with the parameters its scenario rule writes.
    public var fault: Fault {
        switch kind {
        case .status(let code): return .status(code)
        case .delay(let ms): return .delay(ms: ms)
        case .stall: return .stall
        case .drop: return .drop
        case .reset: return .reset
        case .truncate: return .truncate(bytes: 1)
        // A create answered 201 with a body that is not JSON: the promised status, so the client fails on decoding.
        case .malformed: return .malformed(status: step == .create ? 201 : nil)
        case .slowBody: return .slowBody(chunkBytes: 16, intervalMs: 5)
        case .refuse: return .refuse()
        case .refuseAfterAnswer: return .refuseAfterAnswer()
        case .lateAnswer(let percent): return .delay(ms: SeedModel.timingTimeoutMs * percent / 100)
        // The upload's answer (`{}`) in two one-byte pieces, so exactly one pause; a create's in 256-byte pieces, so a few.
        case .slowAnswer(let percent):
            return .slowBody(chunkBytes: step == .upload ? 1 : 256, intervalMs: SeedModel.timingTimeoutMs * percent / 100)
        case .otherBody(let body): return .malformed(status: step == .upload ? 201 : nil, body: body)
        }
    }

    /// The fault's name in the catalogue.
    public var kindName: String { fault.kind }

    /// The cause of the seeds' alert table (SeedAlertPolicy) the client meets when this fault fails its call.
    public var cause: SeedAlertPolicy.Cause {
        switch kind {
        case .status: return .httpStatus
        case .malformed: return .undecodableBody
        case .stall, .lateAnswer, .slowAnswer: return .timedOut
        case .drop: return .connectionLost
        case .reset: return .reset
        case .truncate: return .truncated
        case .refuse, .refuseAfterAnswer: return .refused
        case .delay, .slowBody, .otherBody: return .other
        }
    }

    /// The rule as a scenario file writes it.
    public var rule: JSONValue {
        if let timing { return timedRule(timing) }
        if case .refuse = kind {
            // No selector: the port refuses from the first request on, as scenarios/fault-step1-refuse.json does.
            return ["name": "the server is unreachable from the start", "fault": fault.json]
        }
        return ["name": .string("\(contract) call \(call): \(kindName)"), "contract": .string(contract), "calls": [.number(Double(call))], "fault": fault.json]
    }
}
