import ContractKit
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
    }

    /// `createAnnouncement` (step 1) or `uploadPhoto` (step 2).
    public var contract: String
    /// Which call of that contract (1-based, across attempts).
    public var call: Int
    /// What happens to it.
    public var kind: Kind
    /// For an outage or a quota: the fault then hits every call from `call` on (PlannedTiming.swift).
    public var timing: PlannedTiming?

    /// A fault on `call` of `contract` (from `call` on, when `timing` makes it time-based).
    public init(contract: String, call: Int, kind: Kind, timing: PlannedTiming? = nil) {
        self.contract = contract
        self.call = call
        self.kind = kind
        self.timing = timing
    }

    /// Whether the call fails for the client (delay and slowBody end in the normal answer).
    public var fails: Bool {
        switch kind {
        // A refused server fails every request until lifted, not one call: the model keeps that state itself.
        case .delay, .slowBody, .refuse, .refuseAfterAnswer: return false
        default: return true
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
        case .malformed: return .malformed(status: contract == "createAnnouncement" ? 201 : nil)
        case .slowBody: return .slowBody(chunkBytes: 16, intervalMs: 5)
        case .refuse: return .refuse()
        case .refuseAfterAnswer: return .refuseAfterAnswer()
        }
    }

    /// The fault's name in the catalogue.
    public var kindName: String { fault.kind }

    /// The cause of the seeds' alert table (SeedAlertPolicy) the client meets when this fault fails its call.
    public var cause: SeedAlertPolicy.Cause {
        switch kind {
        case .status: return .httpStatus
        case .malformed: return .undecodableBody
        case .stall: return .timedOut
        case .drop: return .connectionLost
        case .reset: return .reset
        case .truncate: return .truncated
        case .refuse, .refuseAfterAnswer: return .refused
        case .delay, .slowBody: return .other
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
