import ContractKit
import ContractModel

/// What a matching rule does to a request; see docs/faults.md for what a client sees for each.
public enum Fault: Sendable, Equatable {
    /// Answer with this status (and optional body and headers) instead of the backend.
    case status(Int, body: JSONValue? = nil, headers: [String: String] = [:])
    /// Wait this many milliseconds, then give the backend's normal answer.
    case delay(ms: Int)
    /// Read the request and never answer until the client gives up.
    case stall
    /// Close the connection in an orderly way without sending a byte.
    case drop
    /// Abort the connection with a TCP RST.
    case reset
    /// Send the backend's headers (full Content-Length) and only this many body bytes, then close.
    case truncate(bytes: Int)
    /// Answer a 2xx whose body is not JSON, after the backend handled the request.
    case malformed(status: Int? = nil, body: String? = nil)
    /// Send the backend's answer in chunks of `chunkBytes` every `intervalMs` milliseconds.
    case slowBody(chunkBytes: Int, intervalMs: Int)
    /// Stop listening for this many milliseconds (forever when nil): new connections are refused.
    case refuse(ms: Int? = nil)
    /// Answer this request normally with `Connection: close`, then refuse like `refuse`: the client's next request
    /// meets a closed port (ECONNREFUSED), never a kept-alive connection dropped under it.
    case refuseAfterAnswer(ms: Int? = nil)

    /// The kind name used in rule files and in the journal, e.g. `stall`.
    public var kind: String {
        switch self {
        case .status: return "status"
        case .delay: return "delay"
        case .stall: return "stall"
        case .drop: return "drop"
        case .reset: return "reset"
        case .truncate: return "truncate"
        case .malformed: return "malformed"
        case .slowBody: return "slowBody"
        case .refuse: return "refuse"
        case .refuseAfterAnswer: return "refuseAfterAnswer"
        }
    }

    /// The statuses a `status` fault may answer: final ones. A 1xx is interim (the client keeps waiting for the real
    /// answer, and 101 switches protocols), so it can never stand for an answer.
    public static let finalStatuses = 200...599

    /// Why `status` cannot be a `status` fault's answer, for a person; nil when it can.
    static func finalStatusProblem(_ status: Int) -> String? {
        if finalStatuses.contains(status) { return nil }
        if (100...199).contains(status) {
            return "\(status) is an interim (1xx) status, not an answer; a status fault answers with a final status from 200 to 599"
        }
        return "\(status) is not a final HTTP status; a status fault answers with a status from 200 to 599"
    }

    /// Every kind name, in the order the docs list them.
    public static let kinds = ["status", "delay", "stall", "drop", "reset", "truncate", "malformed", "slowBody", "refuse", "refuseAfterAnswer"]

    /// Whether the backend handles the request before the fault shapes the answer.
    public var reachesBackend: Bool {
        switch self {
        case .delay, .truncate, .malformed, .slowBody, .refuseAfterAnswer: return true
        case .status, .stall, .drop, .reset, .refuse: return false
        }
    }

    /// The fault in the rule-file format.
    public var json: JSONValue {
        var o = JSONObject()
        o["kind"] = .string(kind)
        switch self {
        case .status(let status, let body, let headers):
            o["status"] = .number(Double(status))
            if let body { o["body"] = body }
            if !headers.isEmpty {
                o["headers"] = .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
            }
        case .delay(let ms):
            o["ms"] = .number(Double(ms))
        case .stall, .drop, .reset:
            break
        case .truncate(let bytes):
            o["bytes"] = .number(Double(bytes))
        case .malformed(let status, let body):
            if let status { o["status"] = .number(Double(status)) }
            if let body { o["body"] = .string(body) }
        case .slowBody(let chunkBytes, let intervalMs):
            o["chunkBytes"] = .number(Double(chunkBytes))
            o["intervalMs"] = .number(Double(intervalMs))
        case .refuse(let ms), .refuseAfterAnswer(let ms):
            if let ms { o["ms"] = .number(Double(ms)) }
        }
        return .object(o)
    }
}
