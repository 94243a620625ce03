import ContractKit
import ContractModel
import Foundation

/// A rate limit shared by the requests a rule selects: `limit` requests per window of `windowSeconds`; past it, 429.
public struct RequestQuota: Sendable, Equatable {
    /// Who shares one allowance.
    public enum Scope: String, Sendable, Equatable, CaseIterable {
        /// Every request the rule selects, across contracts.
        case shared
        /// Each contract id its own allowance (requests matching no contract share one).
        case perContract
    }

    /// Requests allowed per window (at least 1).
    public var limit: Int
    /// The window's length in seconds (more than 0).
    public var windowSeconds: Double
    /// Who shares one allowance.
    public var scope: Scope

    /// A quota of `limit` requests per `windowSeconds`.
    public init(limit: Int, windowSeconds: Double, scope: Scope = .shared) {
        self.limit = limit
        self.windowSeconds = windowSeconds
        self.scope = scope
    }

    /// The quota in the rule-file format.
    public var json: JSONValue {
        var o: JSONObject = ["limit": .number(Double(limit)), "windowSeconds": .number(windowSeconds)]
        if scope != .shared { o["scope"] = .string(scope.rawValue) }
        return .object(o)
    }

    /// The headers of a refused request (IETF draft `RateLimit-*` names plus `Retry-After`); `reset` is the seconds
    /// until the window ends, rounded up so a client that waits that long is always admitted.
    public func refusalHeaders(reset: Double) -> [String: String] {
        let seconds = String(FaultRanges.wholeSecondsUp(reset))
        return ["Retry-After": seconds, "RateLimit-Limit": String(limit), "RateLimit-Remaining": "0", "RateLimit-Reset": seconds]
    }
}

/// The windows of one quota rule: a window opens with the first request after the previous one ended and admits
/// `limit` requests; refused requests use up nothing.
struct QuotaLedger: Sendable {
    /// What the ledger says about one request.
    enum Verdict: Equatable {
        /// Within the allowance; `remaining` requests are left in this window.
        case admitted(remaining: Int)
        /// Over the allowance until the window ends, `reset` seconds from now.
        case exceeded(reset: Double)
    }

    private var windows: [String: (opened: Date, used: Int)] = [:]

    /// Counts a request under `key` at `now` and says whether it is within `quota`.
    mutating func admit(key: String, quota: RequestQuota, now: Date) -> Verdict {
        var window = windows[key] ?? (opened: now, used: 0)
        if now >= window.opened + quota.windowSeconds {
            window = (opened: now, used: 0)
        }
        guard window.used < quota.limit else {
            windows[key] = window
            return .exceeded(reset: (window.opened + quota.windowSeconds).timeIntervalSince(now))
        }
        window.used += 1
        windows[key] = window
        return .admitted(remaining: quota.limit - window.used)
    }
}
