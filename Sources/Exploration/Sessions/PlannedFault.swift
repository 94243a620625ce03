import ContractKit
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
    }

    /// `createAnnouncement` (step 1) or `uploadPhoto` (step 2).
    public var contract: String
    /// Which call of that contract (1-based, across attempts).
    public var call: Int
    /// What happens to it.
    public var kind: Kind

    /// A fault on `call` of `contract`.
    public init(contract: String, call: Int, kind: Kind) {
        self.contract = contract
        self.call = call
        self.kind = kind
    }

    /// Whether the call fails for the client (delay and slowBody end in the normal answer).
    public var fails: Bool {
        switch kind {
        case .delay, .slowBody: return false
        default: return true
        }
    }

    /// The fault's name in the catalogue.
    public var kindName: String {
        switch kind {
        case .status: return "status"
        case .delay: return "delay"
        case .stall: return "stall"
        case .drop: return "drop"
        case .reset: return "reset"
        case .truncate: return "truncate"
        case .malformed: return "malformed"
        case .slowBody: return "slowBody"
        }
    }

    /// The cause of the seeds' alert table (SeedAlertPolicy) the client meets when this fault fails its call.
    public var cause: SeedAlertPolicy.Cause {
        switch kind {
        case .status: return .httpStatus
        case .malformed: return .undecodableBody
        case .stall: return .timedOut
        case .drop: return .connectionLost
        case .reset: return .reset
        case .truncate: return .truncated
        case .delay, .slowBody: return .other
        }
    }

    /// The rule as a scenario file writes it.
    public var rule: JSONValue {
        let fault: JSONValue
        switch kind {
        case .status(let code): fault = ["kind": "status", "status": .number(Double(code))]
        case .delay(let ms): fault = ["kind": "delay", "ms": .number(Double(ms))]
        case .truncate: fault = ["kind": "truncate", "bytes": 1]
        case .malformed: fault = contract == "createAnnouncement" ? ["kind": "malformed", "status": 201] : ["kind": "malformed"]
        case .slowBody: fault = ["kind": "slowBody", "chunkBytes": 16, "intervalMs": 5]
        default: fault = ["kind": .string(kindName)]
        }
        return ["name": .string("\(contract) call \(call): \(kindName)"), "contract": .string(contract), "calls": [.number(Double(call))], "fault": fault]
    }
}
