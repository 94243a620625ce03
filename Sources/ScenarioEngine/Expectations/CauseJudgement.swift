/// The seeds' error mapping applied to a reported cause: connectivity problems (offline, timeout, host unreachable)
/// show the no-connection alert, everything else (4xx, 5xx, bad response) the generic one (seed 001, User Story 4 and FR-011/FR-012).
struct CauseJudgement: Equatable {
    /// The alert kind the seeds require for the cause.
    let kind: String
    /// The cause for people, e.g. `NSURLErrorDomain -1004 (cannot connect to host)`.
    let cause: String
    /// Why the cause maps to `kind`, e.g. `a connectivity error`.
    let category: String

    /// The no-connection URLError codes: offline, lost, refused, unresolvable, timed out, data off.
    static let connectivityCodes: Set<Int> = [-1009, -1005, -1004, -1003, -1006, -1001, -1020, -1018, -1019]

    /// Names of the URLError codes clients report most, for messages.
    static let codeNames: [Int: String] = [
        -999: "cancelled", -1001: "timed out", -1003: "cannot find host", -1004: "cannot connect to host",
        -1005: "network connection lost", -1006: "DNS lookup failed", -1009: "not connected to the internet",
        -1011: "bad server response", -1017: "cannot parse response", -1018: "international roaming off",
        -1019: "call is active", -1020: "data not allowed", -1200: "secure connection failed",
    ]

    /// The judgement for `cause`, or `nil` when the engine cannot judge it (an unknown error domain).
    static func judge(_ cause: ObservedCause) -> CauseJudgement? {
        switch cause.kind {
        case .urlError:
            let domain = cause.domain ?? "NSURLErrorDomain"
            guard domain == "NSURLErrorDomain", let code = cause.code else { return nil }
            let name = codeNames[code].map { " (\($0))" } ?? ""
            let described = "\(domain) \(code)\(name)"
            return connectivityCodes.contains(code)
                ? CauseJudgement(kind: "noConnection", cause: described, category: "a connectivity error")
                : CauseJudgement(kind: "generic", cause: described, category: "not a connectivity error (the server spoke, or the client failed)")
        case .transport:
            guard let reason = cause.reason, let connectivity = ObservedCause.transportReasons[reason] else { return nil }
            return connectivity
                ? CauseJudgement(kind: "noConnection", cause: "a transport failure \"\(reason)\"", category: "a connectivity error")
                : CauseJudgement(kind: "generic", cause: "a transport failure \"\(reason)\"", category: "a bad response, not a connectivity error")
        case .httpStatus:
            return CauseJudgement(kind: "generic", cause: "HTTP status \(cause.status.map(String.init) ?? "?")", category: "a server answer")
        case .decoding:
            return CauseJudgement(kind: "generic", cause: "an answer it could not read" + (cause.status.map { " (HTTP \($0))" } ?? ""), category: "a bad response")
        case .other:
            return CauseJudgement(kind: "generic", cause: "a failure that is not about the network" + (cause.detail.map { " (\($0))" } ?? ""), category: "not a connectivity error")
        }
    }

    /// The sentence for a client whose alert contradicts its own cause.
    func contradiction(shown: String) -> String {
        let alertName = { (k: String) in k == "noConnection" ? "the no-connection alert" : "the generic alert" }
        var text = "the networking layer reported \(cause), \(category), but \(alertName(shown)) was shown"
        if kind == "noConnection" {
            text += "; the error probably lost its domain on the way to the mapping (a wrapper hid the URLError)"
        } else {
            text += "; the mapping probably treats this failure as connectivity"
        }
        return text
    }
}
