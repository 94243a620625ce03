/// The alert rule as one table: for each cause of a failure, the set of alerts a client profile allows, each with the
/// source lines that allow it. Scenarios, exploration and the proxy judge alerts through this table only, so they never
/// disagree. The causes (how a platform's error becomes a cause) are Swift; which alert each cause gets, with which
/// text and which readings where the sources conflict, is the profile's (`failures` in `profile.json`). Where every
/// reading agrees the table is strict; where they conflict it allows each reading and names it.
public enum SeedAlertPolicy {
    /// The alert kinds of the client protocol (docs/client-protocol.md); a profile gives each its text and name.
    public enum Alert: String, Sendable, CaseIterable {
        /// The alert for a failure of the device's network.
        case noConnection
        /// The alert for any other failure.
        case generic

        /// The default profile's exact text of the alert.
        public var text: String { text(in: .bundledDefault) }
        /// The default profile's name of the alert for people, e.g. `the generic alert`.
        public var name: String { name(in: .bundledDefault) }
        /// The exact text `profile` gives the alert.
        public func text(in profile: ClientProfile) -> String { profile.failures.feedback(rawValue)?.text ?? "any text" }
        /// The name `profile` gives the alert, for people.
        public func name(in profile: ClientProfile) -> String { profile.failures.feedback(rawValue)?.name ?? "the \(rawValue) alert" }
    }

    /// The causes the table distinguishes.
    public enum Cause: String, Sendable, CaseIterable {
        /// The device itself has no network (URLError -1009 notConnectedToInternet).
        case deviceOffline
        /// No answer within the request timeout (-1001).
        case timedOut
        /// The server's port refused the connection (-1004): the server is unreachable, the device is online.
        case refused
        /// The connection broke before the answer was complete (-1005).
        case connectionLost
        /// Linux FoundationNetworking's report for a connection closed without any answer (-1011); Apple reports -1005.
        case droppedOnLinux
        /// The server reset the connection (TCP RST).
        case reset
        /// The answer was cut short (Linux reports -1 unknown; Apple reports -1005).
        case truncated
        /// The host name did not resolve (-1003, -1006).
        case hostNotFound
        /// The device may not use its data connection (-1018, -1019, -1020).
        case dataNotAllowed
        /// The server answered with another HTTP status than the promised one.
        case httpStatus
        /// The promised status with a body the client cannot use.
        case undecodableBody
        /// Anything else (another URLError, a client-side refusal).
        case other
    }

    /// One reading of the seeds: the alert it gives and the lines that give it.
    public struct Reading: Sendable, Equatable {
        /// The alert this reading requires.
        public let alert: Alert
        /// The reading for people, as the profile names it.
        public let name: String
        /// The seed lines, by file and requirement id, e.g. `001 FR-011`.
        public let seedLines: [String]
    }

    /// The table's answer for one cause.
    public struct Ruling: Sendable, Equatable {
        /// The cause.
        public let cause: Cause
        /// The cause as reported, for people, e.g. `NSURLErrorDomain -1004 (cannot connect to host)`.
        public let described: String
        /// Every reading the seeds allow, one per alert.
        public let readings: [Reading]
        /// What an Apple device would report instead, where the platform differs (e.g. Linux's -1011 for a dropped connection).
        public let platformNote: String?

        /// The alerts the seeds allow for this cause.
        public var allowed: Set<Alert> { Set(readings.map(\.alert)) }
        /// Whether every seed gives the same alert.
        public var isStrict: Bool { allowed.count == 1 }
        /// The reading that gives `alert`, if the seeds allow it.
        public func reading(for alert: Alert) -> Reading? { readings.first { $0.alert == alert } }
        /// Every seed line behind the allowed readings, without repeats.
        public var seedLines: [String] {
            var seen: [String] = []
            for line in readings.flatMap(\.seedLines) where !seen.contains(line) { seen.append(line) }
            return seen
        }
    }

    /// What the policy decides about one shown alert.
    public enum Verdict: Sendable, Equatable {
        /// The seeds allow the alert; `reading` names the reading the client took (`nil` where all seeds agree).
        case allowed(reading: Reading?)
        /// The seeds do not allow the alert; `required` is the alert they do, `explanation` says why for people.
        case contradicted(required: Alert, explanation: String)
    }

    /// The readings `profile` allows for `cause` (the default profile unless told).
    public static func readings(for cause: Cause, in profile: ClientProfile = .bundledDefault) -> [Reading] {
        (profile.failures.causes[cause.rawValue] ?? []).compactMap { id in
            guard let reading = profile.failures.readings[id], let alert = Alert(rawValue: reading.feedback) else { return nil }
            return Reading(alert: alert, name: reading.name, seedLines: reading.sources)
        }
    }

    /// Names of the URLError codes clients report most, for messages.
    public static let codeNames: [Int: String] = [
        -1: "unknown", -999: "cancelled", -1001: "timed out", -1003: "cannot find host", -1004: "cannot connect to host",
        -1005: "network connection lost", -1006: "DNS lookup failed", -1009: "not connected to the internet",
        -1011: "bad server response", -1017: "cannot parse response", -1018: "international roaming off",
        -1019: "call is active", -1020: "data not allowed", -1200: "secure connection failed",
    ]

    /// The table's cause for a URLError code.
    public static func cause(forURLErrorCode code: Int) -> Cause {
        switch code {
        case -1009: return .deviceOffline
        case -1001: return .timedOut
        case -1004: return .refused
        case -1005: return .connectionLost
        case -1011: return .droppedOnLinux
        case -1: return .truncated
        case -1003, -1006: return .hostNotFound
        case -1018, -1019, -1020: return .dataNotAllowed
        default: return .other
        }
    }

    /// The table's cause for a portable transport reason (docs/client-protocol.md), `nil` for an unknown one.
    public static func cause(forTransportReason reason: String) -> Cause? {
        switch reason {
        case "offline": return .deviceOffline
        case "timedOut": return .timedOut
        case "refused": return .refused
        case "connectionLost": return .connectionLost
        case "reset": return .reset
        case "truncated": return .truncated
        case "hostNotFound": return .hostNotFound
        case "badResponse": return .undecodableBody
        default: return nil
        }
    }

    /// The ruling for a cause a client reported, or `nil` when the table cannot judge it (an error domain it does not know).
    public static func ruling(for observed: ObservedCause, in profile: ClientProfile = .bundledDefault) -> Ruling? {
        func readings(for cause: Cause) -> [Reading] { Self.readings(for: cause, in: profile) }
        switch observed.kind {
        case .urlError:
            let domain = observed.domain ?? "NSURLErrorDomain"
            guard domain == "NSURLErrorDomain", let code = observed.code else { return nil }
            let cause = cause(forURLErrorCode: code)
            let described = "\(domain) \(code)" + (codeNames[code].map { " (\($0))" } ?? "")
            let note: String?
            switch code {
            case -1011:
                note = "on Linux FoundationNetworking a connection closed without an answer is -1011; an Apple device reports -1005 (network connection lost), which the seeds read either way, so either alert is accepted"
            case -1:
                note = "on Linux FoundationNetworking an answer cut short is -1 (unknown); an Apple device reports -1005 (network connection lost), which the seeds read either way, so either alert is accepted"
            default:
                note = nil
            }
            return Ruling(cause: cause, described: described, readings: readings(for: cause), platformNote: note)
        case .transport:
            guard let reason = observed.reason, let cause = cause(forTransportReason: reason) else { return nil }
            return Ruling(cause: cause, described: "a transport failure \"\(reason)\"", readings: readings(for: cause), platformNote: nil)
        case .httpStatus:
            return Ruling(cause: .httpStatus, described: "HTTP status \(observed.status.map(String.init) ?? "?")", readings: readings(for: .httpStatus), platformNote: nil)
        case .decoding:
            return Ruling(cause: .undecodableBody, described: "an answer it could not read" + (observed.status.map { " (HTTP \($0))" } ?? ""),
                          readings: readings(for: .undecodableBody), platformNote: nil)
        case .other:
            return Ruling(cause: .other, described: "a failure that is not about the network" + (observed.detail.map { " (\($0))" } ?? ""),
                          readings: readings(for: .other), platformNote: nil)
        }
    }

    /// The ruling for an alert's cause: the cause the client reported, or, when it reported none while its device is
    /// offline (`deviceOffline`), the offline cause itself (a server cannot fake that one, so it is certain); `nil` when
    /// the cause is unknown or cannot be judged. Scenarios and exploration both start here.
    public static func ruling(for observed: ObservedCause?, deviceOffline: Bool, in profile: ClientProfile = .bundledDefault) -> Ruling? {
        if let observed { return ruling(for: observed, in: profile) }
        guard deviceOffline else { return nil }
        return Ruling(cause: .deviceOffline, described: "nothing, while its device was offline (the platform reports NSURLErrorDomain -1009, not connected to the internet)",
                      readings: readings(for: .deviceOffline, in: profile), platformNote: nil)
    }

    /// Judges `shown` against the cause behind it (see `ruling(for:deviceOffline:)`); `nil` when the cause cannot be judged.
    public static func judge(shown: String, cause: ObservedCause?, deviceOffline: Bool, in profile: ClientProfile = .bundledDefault) -> Verdict? {
        ruling(for: cause, deviceOffline: deviceOffline, in: profile).map { judge(shown: shown, for: $0, in: profile) }
    }

    /// Judges the alert a client showed (`shown`: `noConnection` or `generic`) against the cause it reported.
    public static func judge(shown: String, for ruling: Ruling, in profile: ClientProfile = .bundledDefault) -> Verdict {
        if let alert = Alert(rawValue: shown), let reading = ruling.reading(for: alert) {
            return .allowed(reading: ruling.isStrict ? nil : reading)
        }
        // A contradicted alert has exactly one other alert left, so the table is strict for this cause.
        let required = ruling.readings[0]
        let lines = ruling.seedLines.joined(separator: ", ")
        let shownName = Alert(rawValue: shown)?.name(in: profile) ?? "an alert of kind \"\(shown)\""
        var text = "the networking layer reported \(ruling.described), and \(profile.authority) require \(required.alert.name(in: profile)) \"\(required.alert.text(in: profile))\" for it (\(lines)), but \(shownName) was shown"
        switch (ruling.cause, required.alert) {
        case (.deviceOffline, _):
            text += "; the mapping did not recognise -1009 as offline (a wrapper around the URLError hid it from the mapping, or the mapping does not list notConnectedToInternet)"
        case (_, .generic):
            text += "; the mapping treats \(ruling.described) as a connectivity problem, but the server answered (or the client failed), so no reading of \(profile.authority) gives it \(shownName)"
        default:
            text += "; the mapping chose the other alert"
        }
        return .contradicted(required: required.alert, explanation: text)
    }
}
