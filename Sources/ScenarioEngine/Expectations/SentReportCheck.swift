import ContractKit
import ContractModel
import Foundation

/// Checks a create request's body against what the user entered, value by value as the client profile lists them
/// (`flow.report.values`). Each check is as strict as the source line it cites and no stricter: where no line fixes a
/// value's form (an email's case, a phone's formatting), every reading of the input is accepted.
struct SentReportCheck {
    /// The report of the earlier steps (and the initial contact inputs).
    let report: ReportData
    /// The contact inputs as the user left them (after edits).
    let inputs: [String: String]
    /// The profile whose report is checked.
    var profile: ClientProfile = .bundledDefault

    /// Why the sent date matters, for a failed date check whatever the step is about (the default profile's `day` value).
    static var dateRule: String { ClientProfile.bundledDefault.flow.report.values.first { $0.check == .day }?.citation ?? bodyRule }
    /// Why the rest of the sent body matters, for a check with no field of its own (the body's media type and form).
    static var bodyRule: String { ClientProfile.bundledDefault.flow.report.bodyCitation }

    /// Every difference between `record`'s body and the report, each explained by the source line that makes it strict.
    func check(_ record: JournalRecord) -> [Mismatch] {
        let values = profile.flow.report
        return compare(record).map { mismatch in
            var m = mismatch
            m.why = Self.field(ofSubject: m.subject).flatMap(values.value)?.citation ?? values.bodyCitation
            return m
        }
    }

    /// The field of a mismatch subject `sent NAME of #N`, `nil` for any other subject.
    static func field(ofSubject subject: String) -> String? {
        guard subject.hasPrefix("sent "), let end = subject.range(of: " of #") else { return nil }
        return String(subject[subject.index(subject.startIndex, offsetBy: 5)..<end.lowerBound])
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

        for rule in profile.flow.report.values {
            let name = rule.field
            switch rule.check {
            case .status:
                // The status is the flow's: a client of another flow sets another one.
                let status = profile.flow.report.status
                if sent(name)?.stringValue != status {
                    m.append(Mismatch(subject(name), expected: "\"\(status)\" (\(profile.flow.report.statusMeans))", actual: shown(sent(name))))
                }
            case .day:
                // The API's YYYY-MM-DD, the day the user picked.
                guard let day = report.fields[name]?.stringValue else { continue }
                let value = sent(name)?.stringValue
                if value != day {
                    let format = value.map { Self.isISODay($0) ? "" : " (not YYYY-MM-DD)" } ?? ""
                    m.append(Mismatch(subject(name), expected: "\"\(day)\" (YYYY-MM-DD)", actual: shown(sent(name)) + format))
                }
            case .anyCase:
                // A choice from a taxonomy: its spelling is the taxonomy's, so case and surrounding spaces are free.
                guard let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
                let value = sent(name)?.stringValue
                if value.map({ Self.trimmed($0).lowercased() }) != Self.trimmed(entered).lowercased() {
                    m.append(Mismatch(subject(name), expected: "\"\(entered)\" (any case)", actual: shown(sent(name))))
                }
            case .number:
                guard let entered = report.fields[name]?.numberValue else { continue }
                let value = sent(name)?.numberValue
                if value.map({ abs($0 - entered) < 1e-6 }) != true {
                    m.append(Mismatch(subject(name), expected: "\(entered) (a JSON number)", actual: shown(sent(name))))
                }
            case .sentWhenEntered:
                guard let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
                if sent(name)?.stringValue.map(Self.trimmed) != Self.trimmed(entered) {
                    m.append(Mismatch(subject(name), expected: ExpectationChecker.quote(entered), actual: shown(sent(name))))
                }
            case .enteredWhenSent:
                guard let value = sent(name), let entered = nonBlank(report.fields[name]?.stringValue) else { continue }
                if value.stringValue.map(Self.trimmed) != Self.trimmed(entered) {
                    m.append(Mismatch(subject(name), expected: ExpectationChecker.quote(entered) + " or absent", actual: shown(value)))
                }
            case .wholeNumberWhenSent:
                if let value = sent(name), let entered = report.fields[name]?.intValue, value.intValue != entered {
                    m.append(Mismatch(subject(name), expected: "\(entered) or absent", actual: shown(value)))
                }
            case .verbatimInput:
                m += contact(name, accepts: { sent, entered in sent == entered }, subject: subject(name), sent: sent(name), what: "verbatim")
            case .emailInput:
                m += contact(name, accepts: Self.sameEmail, subject: subject(name), sent: sent(name), what: "in any case, with or without surrounding whitespace")
            case .trimmedEmailInput:
                m += contact(name, accepts: Self.sameTrimmedEmail, subject: subject(name), sent: sent(name), what: "in any case, without surrounding spaces or tabs")
            case .phoneInput:
                m += contact(name, accepts: Self.samePhone, subject: subject(name), sent: sent(name), what: "with the same digits and leading +, in any formatting")
            }
        }
        return m
    }

    /// An email input is case-insensitive and trimmed (the profile's `emailInput` cites the line). So an address in
    /// another case (a lower-cased domain, or all of it) and with or without the surrounding whitespace is the same.
    static func sameEmail(_ sent: String, _ entered: String) -> Bool {
        trimmed(sent).lowercased() == trimmed(entered).lowercased()
    }

    /// An email the source says is trimmed before it is used: the same address as `sameEmail`, and the sent text is the
    /// typed one with surrounding whitespace removed. Only a space or a tab left at either end fails: those are what
    /// every trim removes (Swift's `.whitespaces`, Java's `trim()`, JavaScript's `trim()`), while which of the others
    /// (a newline, a no-break space) a trim takes differs by platform, and no seed line chooses.
    static func sameTrimmedEmail(_ sent: String, _ entered: String) -> Bool {
        guard sameEmail(sent, entered), let first = sent.unicodeScalars.first, let last = sent.unicodeScalars.last else { return false }
        let everyTrimRemoves: Set<Unicode.Scalar> = [" ", "\t"]
        return !everyTrimRemoves.contains(first) && !everyTrimRemoves.contains(last)
    }

    /// A phone input is digits and a leading `+`, the user's formatting kept in the UI (the profile's `phoneInput` cites
    /// the line). No line says how the body formats it, so any formatting of the same digits passes, as long as the
    /// client added no character the user did not type.
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
