import ContractKit
import ContractModel
import Foundation

/// Compares what happened in a step with what the scenario expects; every difference becomes a `Mismatch`.
struct ExpectationChecker {
    /// The step being checked.
    let step: Step
    /// Whether the scenario has taken the client's device offline (`deviceOffline`) before this step.
    var deviceOffline = false
    /// The client profile whose rules judge the step (which alert each cause gets, with which text).
    var profile: ClientProfile
    /// The operations the profile's flow goes through (nil: the bundled contracts').
    var operations: FlowOperations

    /// A checker for `step`, judging by `profile` over `operations` (the bundled contracts' when nil).
    init(step: Step, deviceOffline: Bool = false, profile: ClientProfile = .bundledDefault, operations: FlowOperations? = nil) {
        self.step = step
        self.deviceOffline = deviceOffline
        self.profile = profile
        self.operations = operations ?? .bundled(for: profile)
    }

    // MARK: client steps

    /// Checks a client observation; `expectedInputs` is what the user has entered so far.
    func check(_ o: ClientObservation, expectedInputs: [String: String]) -> [Mismatch] {
        let e = step.expect
        var m: [Mismatch] = []
        let submission: Bool
        if case .client(let action) = step.action { submission = [.submit, .doubleTapContinue, .retry, .cancel].contains(action) } else { submission = false }

        // Where the seeds allow several outcomes, the checks that belong to an outcome apply only when the client chose it.
        let flexible = !e.otherOutcomes.isEmpty
        let accepted = (e.outcome.map { [$0] } ?? []) + e.otherOutcomes
        let effective = accepted.contains(o.outcome) ? o.outcome : e.outcome
        if let outcome = e.outcome, !accepted.contains(o.outcome) {
            var actual = o.outcome.rawValue
            if let alert = o.alert { actual += " with alert \(alert.kind) \"\(alert.message)\"" }
            if let cause = o.cause, let ruling = SeedAlertPolicy.ruling(for: cause, in: profile) { actual += " (cause: \(ruling.described))" }
            if !o.fieldErrors.isEmpty { actual += " with field messages \(Self.describe(o.fieldErrors))" }
            m.append(Mismatch("outcome", expected: flexible ? accepted.map(\.rawValue).joined(separator: " or ") : outcome.rawValue, actual: actual))
        }
        if let pattern = e.managementPassword, !flexible || effective == .success {
            if let password = o.managementPassword {
                if !pattern.matches(password) { m.append(Mismatch("managementPassword", expected: "a value matching \(pattern)", actual: "\"\(password)\"")) }
            } else {
                m.append(Mismatch("managementPassword", expected: "a value matching \(pattern) handed to the summary", actual: "none"))
            }
        }
        // A flow whose success closes shows no management password (the profile's `success.shows: close`).
        if profile.success.shows == .close, e.managementPassword == nil, o.outcome == .success, let password = o.managementPassword {
            m.append(Mismatch("managementPassword", expected: "none: the \(profile.flow.name) flow closes on success", actual: "\"\(password)\" handed to a summary",
                              why: profile.success.source))
        }
        if let alert = e.alert, !flexible || effective == .failure {
            m += checkAlert(alert, o)
        } else if let shown = o.alert, let outcome = effective, [.success, .invalid, .cancelled, .edited].contains(outcome) {
            m.append(Mismatch("alert", expected: "no alert after \(outcome.rawValue)", actual: "\(shown.kind) \"\(shown.message)\""))
        }
        if let expected = e.analytics, let reported = o.analytics, expected != reported {
            m.append(Mismatch("analytics events", expected: expected.isEmpty ? "none" : expected.joined(separator: ", "),
                              actual: reported.isEmpty ? "none" : reported.joined(separator: ", ")))
        }
        if let fields = e.fieldErrors, !flexible || effective == .invalid, !([fields] + e.otherFieldErrors).contains(o.fieldErrors) {
            m.append(Mismatch("field messages", expected: ([fields] + e.otherFieldErrors).map(Self.describe).joined(separator: " or "), actual: Self.describe(o.fieldErrors)))
        }
        if let inputs = e.inputs {
            for (field, accepted) in inputs.sorted(by: { $0.key < $1.key }) {
                let actual = o.inputs?[field]
                if actual.map(accepted.contains) != true {
                    m.append(Mismatch("input \(field)", expected: accepted.map(Self.quote).joined(separator: " or "), actual: actual.map(Self.quote) ?? "not reported"))
                }
            }
        }
        if e.inputsIntact == true {
            if let inputs = o.inputs {
                // The form's inputs and every field the scenario typed into (a flow's own, such as a caregiver's phone).
                let form = profile.flow.formFields
                let fields = form + expectedInputs.keys.filter { !form.contains($0) }.sorted()
                for field in fields where (inputs[field] ?? "") != (expectedInputs[field] ?? "") {
                    m.append(Mismatch("input \(field) (must stay intact)", expected: Self.quote(expectedInputs[field] ?? ""), actual: Self.quote(inputs[field] ?? "")))
                }
            } else {
                m.append(Mismatch("inputs", expected: "the entered \(Self.list(profile.flow.formFields))", actual: "the client reported no inputs"))
            }
        }
        let expectedScreen = e.screen ?? (submission ? impliedScreen(effective) : nil)
        if let screen = expectedScreen, o.screen != screen {
            let goes = screen == "form" ? "keeps the user on the form" : screen == "closed" ? "closes the flow" : "goes to the summary"
            let why = e.screen == nil ? " (a \(effective?.rawValue ?? "") \(goes))" : ""
            m.append(Mismatch("screen", expected: screen + why, actual: o.screen ?? "not reported"))
        }
        if let d = e.details {
            if let shown = o.details {
                if let state = d.state, shown.state != state {
                    m.append(Mismatch("details state", expected: state, actual: shown.state + (shown.message.map { " \"\($0)\"" } ?? "")))
                }
                if let message = d.message, shown.message != message {
                    m.append(Mismatch("details message", expected: Self.quote(message), actual: shown.message.map(Self.quote) ?? "none"))
                }
                for (key, values) in (d.presentation ?? [:]).sorted(by: { $0.key < $1.key }) where shown.presentation[key].map(values.contains) != true {
                    m.append(Mismatch("details \(key)", expected: values.map(Self.quote).joined(separator: " or "), actual: shown.presentation[key].map(Self.quote) ?? "not presented"))
                }
            } else {
                m.append(Mismatch("details", expected: "the pet details screen", actual: "the client reported no details"))
            }
        }
        if let count = e.listedCount {
            let actual = o.listedIDs.map { "\($0.count)" } ?? "no list"
            if o.listedIDs?.count != count { m.append(Mismatch("listed announcements", expected: "\(count)", actual: actual)) }
        }
        return m
    }

    /// The alert against the expectation, and against the seeds' alert policy for the cause the client reported.
    func checkAlert(_ alert: AlertExpectation, _ o: ClientObservation) -> [Mismatch] {
        let kinds = alert.kinds.joined(separator: " or ")
        guard let shown = o.alert else {
            if isList, o.inlineError != nil { return [] }
            return [Mismatch("alert", expected: kinds + (isList ? " (or an inline error)" : ""), actual: "no alert")]
        }
        var m: [Mismatch] = []
        // The alert the cause requires, when the shown one contradicts it: its text is the expected text too.
        var required: SeedAlertPolicy.Alert?
        if let ruling = ruling(for: o) {
            switch SeedAlertPolicy.judge(shown: shown.kind, for: ruling, in: profile) {
            case .contradicted(let alertRequired, let explanation):
                required = alertRequired
                let note = ruling.platformNote.map { "; \($0)" } ?? ""
                m.append(Mismatch("alert for the reported cause", expected: "\(alertRequired.rawValue) \(Self.quote(alertRequired.text(in: profile)))",
                                  actual: "\(shown.kind) \(Self.quote(shown.message))", explanation: explanation + note))
            case .allowed:
                if !alert.kinds.contains(shown.kind) {
                    m.append(Mismatch(
                        "alert cause", expected: "a failure the seeds map to \(kinds)", actual: ruling.described,
                        explanation: "the networking layer reported \(ruling.described), for which the seeds allow \(shown.kind), so the alert matches the cause; but this step's fault should reach the client as a failure the seeds map to \(kinds): the client (or its platform) saw another failure than the one injected"))
                }
            }
        } else if !alert.kinds.contains(shown.kind) {
            m.append(Mismatch("alert kind", expected: kinds, actual: shown.kind))
        }
        let expectedKind = required?.rawValue ?? (alert.kinds.contains(shown.kind) ? shown.kind : alert.kinds[0])
        // A profile whose sources state no exact text for the feedback (e.g. "a user-friendly message") checks none.
        let message = alert.message ?? AlertExpectation.standardMessages(in: profile)[expectedKind]
        // An app may split the text into a title and a message; any form that shows the seeds' text is accepted.
        if let message, !shown.readableTexts.contains(message), required == nil || alert.message != nil {
            let actual = shown.title.map { "title \(Self.quote($0)), message \(Self.quote(shown.message))" } ?? Self.quote(shown.message)
            m.append(Mismatch("alert message", expected: Self.quote(message), actual: actual))
        }
        if let buttons = alert.buttons, let reported = shown.buttons {
            let same = alert.buttonOrder != nil ? buttons == reported : buttons.sorted() == reported.sorted()
            if !same {
                m.append(Mismatch(
                    "alert buttons", expected: buttons.map(Self.quote).joined(separator: ", ") + (alert.buttonOrder.map { " in this order (\($0))" } ?? " (in any order)"),
                    actual: reported.isEmpty ? "none" : reported.map(Self.quote).joined(separator: ", ")))
            }
        }
        return m
    }

    /// The policy's ruling for the alert's cause: the cause the client reported, or, when it reported none while the
    /// scenario has its device offline, the offline cause itself (a server cannot fake that one, so it is certain).
    func ruling(for o: ClientObservation) -> SeedAlertPolicy.Ruling? {
        SeedAlertPolicy.ruling(for: o.cause, deviceOffline: deviceOffline, in: profile)
    }

    /// Whether the step loads the list, whose errors no seed describes: an inline error is as valid as an alert there.
    var isList: Bool {
        if case .client(.list) = step.action { return true }
        return false
    }

    /// The readings of conflicting seeds the client took in this step, for the report (empty where the seeds agree).
    func readings(_ o: ClientObservation) -> [String] {
        if isList, step.expect.alert != nil, o.alert == nil, let inline = o.inlineError {
            return ["showed the failure inline (\(Self.quote(inline))) instead of an alert: no seed describes the list screen's errors, so either is accepted"]
        }
        guard step.expect.alert != nil, let shown = o.alert, let ruling = ruling(for: o),
              case .allowed(let reading?) = SeedAlertPolicy.judge(shown: shown.kind, for: ruling, in: profile) else { return [] }
        var text = "reported \(ruling.described) and showed \(shown.kind): the reading \(reading.name) (\(reading.seedLines.joined(separator: ", ")))"
        if let note = ruling.platformNote { text += "; \(note)" }
        return [text]
    }

    /// Checks that could only run weakly because the client did not report what would make them strict.
    func weakerChecks(_ o: ClientObservation) -> [String] {
        var notes: [String] = []
        if let alert = step.expect.alert, o.alert != nil {
            if o.cause == nil, !deviceOffline, alert.kinds.count > 1 {
                notes.append("the alert was judged without a cause (the client reported none), so either \(alert.kinds.joined(separator: " or ")) was accepted")
            } else if let cause = o.cause, SeedAlertPolicy.ruling(for: cause, in: profile) == nil {
                notes.append("the reported cause \(cause.domain ?? "?") \(cause.code.map(String.init) ?? "") is outside NSURLErrorDomain, so the alert was judged without it")
            }
            if alert.buttons != nil, o.alert?.buttons == nil { notes.append("the alert's buttons were not checked (the client does not report them)") }
        }
        if step.expect.analytics != nil, o.analytics == nil { notes.append("analytics events were not checked (the client does not report them)") }
        return notes
    }

    func impliedScreen(_ outcome: ClientOutcome?) -> String? {
        switch outcome {
        case .success: return profile.success.shows == .close ? "closed" : "summary"
        case .failure, .invalid, .cancelled: return "form"
        default: return nil
        }
    }

    // MARK: http steps

    /// Checks a raw HTTP answer.
    func check(_ answer: HTTPAnswer) -> [Mismatch] {
        guard let e = step.expect.http else { return [] }
        var m: [Mismatch] = []
        let body = try? JSONValue(parsing: answer.body)
        let bodyText = Self.excerpt(String(decoding: answer.body, as: UTF8.self))
        if let status = e.status, answer.status != status {
            m.append(Mismatch("status", expected: "\(status)", actual: "\(answer.status) \(bodyText)"))
        }
        if let code = e.errorCode {
            let actual = body?["error"]?["code"]?.stringValue
            if actual != code { m.append(Mismatch("error code", expected: code, actual: actual ?? "no error envelope in \(bodyText)")) }
        }
        if let field = e.errorField {
            let actual = body?["error"]?["field"]?.stringValue
            if actual != field { m.append(Mismatch("error field", expected: field, actual: actual ?? "none")) }
        }
        for (name, pattern) in e.headers {
            let value = answer.headers.first { $0.name.lowercased() == name.lowercased() }?.value
            if let value {
                if !pattern.matches(value) { m.append(Mismatch("header \(name)", expected: "a value matching \(pattern)", actual: Self.quote(value))) }
            } else {
                m.append(Mismatch("header \(name)", expected: "present, matching \(pattern)", actual: "absent"))
            }
        }
        for (pointer, pattern) in e.bodyMatches {
            guard let value = body.flatMap({ Self.resolve(pointer, in: $0) }) else {
                m.append(Mismatch("body \(pointer)", expected: "a value matching \(pattern)", actual: body == nil ? "a body that is not JSON: \(bodyText)" : "absent"))
                continue
            }
            let text = value.stringValue ?? value.serialized()
            if !pattern.matches(text) { m.append(Mismatch("body \(pointer)", expected: "a value matching \(pattern)", actual: value.serialized())) }
        }
        for (pointer, expected) in e.bodyEquals {
            let value = body.flatMap { Self.resolve(pointer, in: $0) }
            if value != expected {
                m.append(Mismatch("body \(pointer)", expected: expected.serialized(), actual: value?.serialized() ?? "absent"))
            }
        }
        return m
    }

    // MARK: journal

    /// Checks the requests received during the step; `existingIDs` are the record ids the target confirmed exist.
    func checkJournal(stepRecords: [JournalRecord], announcementCount: Int?, existingIDs: Set<String>, sent: SentReportCheck? = nil) -> [Mismatch] {
        guard let j = step.expect.journal else { return [] }
        var m: [Mismatch] = []
        let contracts = stepRecords.map { $0.contract ?? "\($0.method) \($0.path)" }
        if j.noRequests, !stepRecords.isEmpty {
            m.append(Mismatch("requests", expected: "no request at all", actual: "\(stepRecords.count): \(stepRecords.map(\.line).joined(separator: "; "))"))
        }
        for (contract, count) in j.calls {
            let actual = contracts.filter { $0 == contract }.count
            if actual != count {
                m.append(Mismatch("calls to \(contract)", expected: "\(count)", actual: "\(actual)"))
            }
        }
        if let order = j.order, order != contracts {
            m.append(Mismatch("call order", expected: order.isEmpty ? "none" : order.joined(separator: " → "), actual: contracts.isEmpty ? "none" : contracts.joined(separator: " → ")))
        }
        if j.authUserIsCreatedId {
            let uploads = stepRecords.filter { operations.isUpload($0.contract) }
            if uploads.isEmpty {
                m.append(Mismatch("photo upload auth", expected: "at least one upload (\(operations.uploadNames)) to check", actual: "none"))
            }
            for record in uploads {
                let pathID = operations.uploadTarget(record.path, contract: record.contract)
                if record.authUser != pathID {
                    m.append(Mismatch("Basic auth user of #\(record.sequence)", expected: "the created record's id \(pathID ?? "?")", actual: record.authUser.map(Self.quote) ?? "no Basic auth"))
                } else if let pathID, !existingIDs.contains(pathID) {
                    m.append(Mismatch("photo upload target of #\(record.sequence)", expected: "an announcement created by step 1", actual: "\(pathID), which the backend does not know"))
                }
            }
        }
        if j.checksSentBodies {
            let creates = stepRecords.filter { operations.isCreate($0.contract) }
            if creates.isEmpty {
                m.append(Mismatch("create request body", expected: "at least one create (\(operations.createNames)) to check", actual: "none"))
            }
            for record in creates {
                if j.sentReport, let sent { m += sent.check(record) }
                let body = record.bodyText.flatMap { try? JSONValue(parsing: Data($0.utf8)) }
                for (pointer, expected) in j.sentBody {
                    let value = body.flatMap { Self.resolve(pointer, in: $0) }
                    if value != expected {
                        m.append(Mismatch("sent body \(pointer) of #\(record.sequence)", expected: expected.serialized(), actual: value?.serialized() ?? "absent"))
                    }
                }
                for (pointer, pattern) in j.sentBodyMatches {
                    guard let value = body.flatMap({ Self.resolve(pointer, in: $0) }) else {
                        m.append(Mismatch("sent body \(pointer) of #\(record.sequence)", expected: "a value matching \(pattern)", actual: "absent"))
                        continue
                    }
                    if !pattern.matches(value.stringValue ?? value.serialized()) {
                        m.append(Mismatch("sent body \(pointer) of #\(record.sequence)", expected: "a value matching \(pattern)", actual: value.serialized()))
                    }
                }
            }
        }
        if let expected = j.announcements {
            let actual = announcementCount.map(String.init) ?? "unknown (the target cannot count)"
            if announcementCount != expected { m.append(Mismatch("announcements on the backend", expected: "\(expected)", actual: actual)) }
        }
        return m
    }


    // MARK: helpers

    /// Resolves an RFC 6901 pointer.
    static func resolve(_ pointer: String, in value: JSONValue) -> JSONValue? {
        if pointer.isEmpty { return value }
        var current = value
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let o):
                guard let next = o[token] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(token), a.indices.contains(i) else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    static func describe(_ map: [String: String]) -> String {
        map.isEmpty ? "none" : map.sorted { $0.key < $1.key }.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ")
    }

    static func quote(_ s: String) -> String {
        let shown = s.count > 60 ? String(s.prefix(57)) + "… (\(s.count) characters)" : s
        return "\"\(shown)\""
    }

    static func excerpt(_ s: String) -> String {
        s.count > 160 ? String(s.prefix(160)) + "…" : s
    }

    /// `a, b and c`, for a sentence naming fields.
    static func list(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
