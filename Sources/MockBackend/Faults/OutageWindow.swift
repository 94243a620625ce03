import ContractKit
import ContractModel
import Foundation

/// A span of time in which a rule's fault hits every request it selects: "the backend is down for the next 30 seconds".
public struct OutageWindow: Sendable, Equatable {
    /// When the window opens.
    public enum Start: Sendable, Equatable {
        /// At this wall-clock time (on the layer's clock).
        case at(Date)
        /// This many seconds after the first request the rule's selector matched (0: that request is the first one down).
        case afterFirstCall(seconds: Double)
    }

    /// When the window opens.
    public var start: Start
    /// How long it stays open, in seconds (more than 0).
    public var seconds: Double

    /// A window opening at `start` for `seconds`.
    public init(start: Start = .afterFirstCall(seconds: 0), seconds: Double) {
        self.start = start
        self.seconds = seconds
    }

    /// When the window opens, or nil while that depends on a first call that has not come yet.
    public func opens(firstCall: Date?) -> Date? {
        switch start {
        case .at(let date): return date
        case .afterFirstCall(let delay): return firstCall.map { $0 + delay }
        }
    }

    /// The seconds left until the window closes when `now` is inside it (`[opens, opens + seconds)`), else nil.
    public func remaining(at now: Date, firstCall: Date?) -> Double? {
        guard let opens = opens(firstCall: firstCall) else { return nil }
        let closes = opens + seconds
        guard now >= opens, now < closes else { return nil }
        return closes.timeIntervalSince(now)
    }

    /// The window in the rule-file format.
    public var json: JSONValue {
        var o = JSONObject()
        switch start {
        case .at(let date): o["at"] = .string(date.formatted(.iso8601))
        case .afterFirstCall(let delay): o["after"] = .number(delay)
        }
        o["seconds"] = .number(seconds)
        return .object(o)
    }
}
