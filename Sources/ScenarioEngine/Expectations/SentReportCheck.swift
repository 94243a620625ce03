import ContractKit
import ContractModel
import Foundation

/// Checks a create request's body against what the user entered. Each check is as strict as the seed line it cites
/// (`SentValueRule`) and no stricter: where no line fixes a value's form (the email's case, the phone's formatting),
/// every reading of the input is accepted.
struct SentReportCheck {
    /// The report of steps 1 to 3 (and the initial contact inputs).
    let report: ReportData
    /// The contact inputs as the user left them (after edits).
    let inputs: [String: String]

    /// Why the sent date matters, for a failed date check whatever the step is about.
    static let dateRule = SentValueRule.lastSeenDate.citation
    /// Why the rest of the sent body matters, for a check with no field of its own (the body's media type and form).
    static let bodyRule = "the create request must carry the report as the user entered it (seed 001 FR-003 step 1; petspot-api createAnnouncement)"

    /// Every difference between `record`'s body and the report, each explained by the seed line that makes it strict.
    func check(_ record: JournalRecord) -> [Mismatch] {
        compare(record).map { mismatch in
            var m = mismatch
            m.why = SentValueRule.forSubject(m.subject)?.citation ?? Self.bodyRule
            return m
        }
    }

    private func compare(_ record: JournalRecord) -> [Mismatch] {
        let who = "#\(record.sequence)"
        var m: [Mismatch] = []
        if !(record.contentType ?? "").lowercased().hasPrefix("application/json") {
            m.append(Mismatch("Content-Type of \(who)", expected: "application/json (the API reads no other body)", actual: record.contentType.map { "\"\($0)\"" } ?? "none"))
        }
        // A body the journal cut short cannot be judged: blaming the client for the journal's limit would be wrong.
        if let text = record.bodyText, text.utf8.count < record.bodySize { return m }
        guard let text = record.bodyText, let body = try? JSONValue(parsing: Data(text.utf8)), let object = body.objectValue else {
            m.append(Mismatch("body of \(who)", expected: "a JSON object carrying the report", actual: record.bodyText.map { ExpectationChecker.excerpt($0) } ?? "no text body (\(record.bodySize) bytes)"))
            return m
        }
        func sent(_ name: String) -> JSONValue? {
            guard let v = object[name], !v.isNull else { return nil }
            return v
        }
        func subject(_ name: String) -> String { "sent \(name) of \(who)" }
        func shown(_ v: JSONValue?) -> String { v.map { $0.serialized() } ?? "absent" }

        // status: the seeds' payload is always MISSING for this flow.
        if sent("status")?.stringValue != "MISSING" {
            m.append(Mismatch(subject("status"), expected: "\"MISSING\" (a missing-pet report)", actual: shown(sent("status"))))
        }
        // lastSeenDate: the API's YYYY-MM-DD, the day the user picked.
        if let day = report.fields["lastSeenDate"]?.stringValue {
            let value = sent("lastSeenDate")?.stringValue
            if value != day {
                let format = value.map { Self.isISODay($0) ? "" : " (not YYYY-MM-DD)" } ?? ""
                m.append(Mismatch(subject("lastSeenDate"), expected: "\"\(day)\" (YYYY-MM-DD)", actual: shown(sent("lastSeenDate")) + format))
            }
        }
        // species and sex: the step-3 choices; their spelling is the taxonomy's, so case and surrounding spaces are free.
        for name in ["species", "sex"] {
            guard let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
            let value = sent(name)?.stringValue
            if value.map({ Self.trimmed($0).lowercased() }) != Self.trimmed(entered).lowercased() {
                m.append(Mismatch(subject(name), expected: "\"\(entered)\" (any case)", actual: shown(sent(name))))
            }
        }
        // The location, when the user gave one.
        for name in ["locationLatitude", "locationLongitude"] {
            guard let entered = report.fields[name]?.numberValue else { continue }
            let value = sent(name)?.numberValue
            if value.map({ abs($0 - entered) < 1e-6 }) != true {
                m.append(Mismatch(subject(name), expected: "\(entered) (a JSON number)", actual: shown(sent(name))))
            }
        }
        // Optional step 1–3 fields: required when entered (microchip, description), else checked only if sent.
        for name in ["microchipNumber", "description"] {
            guard let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
            if sent(name)?.stringValue.map(Self.trimmed) != Self.trimmed(entered) {
                m.append(Mismatch(subject(name), expected: ExpectationChecker.quote(entered), actual: shown(sent(name))))
            }
        }
        for name in ["breed", "petName"] {
            guard let value = sent(name), let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
            if value.stringValue.map(Self.trimmed) != Self.trimmed(entered) {
                m.append(Mismatch(subject(name), expected: ExpectationChecker.quote(entered) + " or absent", actual: shown(value)))
            }
        }
        if let value = sent("age"), let entered = report.fields["age"]?.intValue, value.intValue != entered {
            m.append(Mismatch(subject("age"), expected: "\(entered) or absent", actual: shown(value)))
        }
        // Contact: the inputs as the user left them. The reward verbatim (FR-006); the email in any case and with or
        // without surrounding whitespace (FR-005); the phone's digits with its leading + in any formatting (FR-004).
        m += contact("reward", accepts: { sent, entered in sent == entered }, subject: subject("reward"), sent: sent("reward"), what: "verbatim")
        m += contact("email", accepts: Self.sameEmail, subject: subject("email"), sent: sent("email"),
                     what: "in any case, with or without surrounding whitespace")
        m += contact("phone", accepts: Self.samePhone, subject: subject("phone"), sent: sent("phone"),
                     what: "with the same digits and leading +, in any formatting")
        return m
    }

    /// Seed 001 FR-005 and Assumptions "Email validation": case-insensitive, whitespace trimmed. So an address in
    /// another case (a lower-cased domain, or all of it) and with or without the surrounding whitespace is the same.
    static func sameEmail(_ sent: String, _ entered: String) -> Bool {
        trimmed(sent).lowercased() == trimmed(entered).lowercased()
    }

    /// Seed 001 FR-004 and Assumptions "Phone validation": digits and a leading `+`, spaces and dashes sanitized, the
    /// user's formatting kept in the UI. No line says how the body formats it, so any formatting of the same digits
    /// passes, as long as the client added no character the user did not type.
    static func samePhone(_ sent: String, _ entered: String) -> Bool {
        phoneDigits(sent) == phoneDigits(entered) && Set(sent).isSubset(of: Set(entered))
    }

    private func contact(_ name: String, accepts: (String, String) -> Bool, subject: String, sent: JSONValue?, what: String) -> [Mismatch] {
        let entered = inputs[name] ?? ""
        let value = sent?.stringValue
        if Self.trimmed(entered).isEmpty {
            if let value, !Self.trimmed(value).isEmpty {
                return [Mismatch(subject, expected: "absent or empty (the input is empty)", actual: ExpectationChecker.quote(value))]
            }
            return []
        }
        guard let value, accepts(value, entered) else {
            let actual = sent.map { v in v.stringValue.map(ExpectationChecker.quote) ?? v.serialized() } ?? "absent"
            return [Mismatch(subject, expected: "the \(name) input \(ExpectationChecker.quote(entered)) \(what)", actual: actual)]
        }
        return []
    }

    private func nonBlank(_ text: String?) -> String? {
        guard let text, !Self.trimmed(text).isEmpty else { return nil }
        return text
    }

    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The digits of a phone, with its leading `+` kept.
    static func phoneDigits(_ phone: String) -> String {
        let t = trimmed(phone)
        return (t.hasPrefix("+") ? "+" : "") + t.filter(\.isASCII).filter(\.isNumber)
    }

    static func isISODay(_ text: String) -> Bool {
        text.utf8.count == 10 && text.enumerated().allSatisfy { i, c in (i == 4 || i == 7) ? c == "-" : (c.isASCII && c.isNumber) }
    }
}
