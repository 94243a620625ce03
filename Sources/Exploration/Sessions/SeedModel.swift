import ContractKit
import ContractModel
import ScenarioEngine

/// The seeds made executable for a session: walks the user's actions, predicts what the seeds require after each
/// (outcome, alert, inputs, requests, analytics, the summary's password) and writes it as ordinary scenario steps,
/// so the explorer and `spotcheck run` judge a session with the same `ExpectationChecker`.
public struct SeedModel: Sendable {
    /// The contact inputs the form starts with (the report's).
    public let startInputs: [String: String]
    /// The form and the profile that judges it.
    public let form: SessionForm
    /// How long an idle step waits for a request the client must not send.
    public static let idleMs = 500
    /// The request timeout used when a session stalls, drops, resets or cuts a call, so a wait for the timeout ends quickly.
    public static let stallTimeoutMs = 1000
    /// The request timeout of a session with an answer timed against it (`PlannedFault.Kind.lateAnswer`, `.slowAnswer`):
    /// long enough that half of it leaves a busy machine one and a half seconds to spare.
    public static let timingTimeoutMs = 3000

    /// A model for `form` (the seeds' unless told) starting with `startInputs`.
    public init(startInputs: [String: String], form: SessionForm = .default) {
        self.startInputs = startInputs
        self.form = form
    }

    private enum Phase { case form, alert, summary }

    /// The steps the seeds require for `session`; actions the screen does not offer at that point are left out, and
    /// the walk stops after a success or at a submission the seeds let the client stop or send (what follows would
    /// depend on the reading the client took).
    public func steps(for session: Session) -> [ModelledStep] {
        var phase = Phase.form
        // Each field's value, or the values it may hold after typing past its limit (kept, cut or rejected).
        var inputs = Dictionary(form.fields.map { ($0, [startInputs[$0] ?? ""]) }, uniquingKeysWith: { first, _ in first })
        let profile = form.profile
        let showsSummary = profile.success.shows == .summary
        /// The success's password expectation where the flow shows a summary (a flow that closes shows none).
        func summary(_ expect: inout JSONObject) {
            guard showsSummary else { return }
            expect["managementPassword"] = .string(passwordPattern)
            expect["passwordOpensPhoto"] = true
        }
        var offline = false
        var brokenConnection = false
        var creates = 0
        var uploads = 0
        var detailCalls = 0
        // Announcements of this session holding a photo: the list shows them next to the stored ones.
        var photosStored = 0
        // False once an upload may or may not have stored its photo (a late answer the client gave up on).
        var photosKnown = true
        // Whether an announcement with the report's microchip exists, so a later create meets 409 (the contract's unique rule).
        var chipTaken = false
        // A refused port stays refused until the rules are lifted (docs/faults.md `refuse`); lifting removes every rule.
        var serverDown = session.faults.contains { $0.kind == .refuse }
        var lifted = false
        var steps: [ModelledStep] = []
        func fault(_ step: FlowCalls.Step, _ call: Int) -> PlannedFault? {
            lifted ? nil : session.faults.first { $0.step == step && $0.covers(call: call) && $0.fails }
        }
        func attempt(_ action: String) -> ModelledStep {
            if offline {
                // The device fails the request before it leaves (-1009): every seed gives "No connection" (001 FR-011, US4
                // scenario 1; 003 T039/T044), and nothing reaches the server.
                phase = .alert
                let rules: [ModelRule] = [.alertFitsCause, .stayOnForm, .inputsSurvive, .analyticsOnlyOnSuccess]
                return ModelledStep(document: [
                    "action": .string(action),
                    "expect": ["outcome": "failure", "alert": ["kind": .array(Self.alertKinds(.deviceOffline, in: profile).map { .string($0) })],
                               "inputsIntact": true, "analytics": [], "journal": ["noRequests": true], "because": .string(Self.because(rules))],
                ], kind: .attempt(succeeds: false), rules: rules)
            }
            if serverDown {
                // Nothing reaches a port that refuses (-1004), however often the user taps. The seeds allow either alert
                // for an unreachable server (SeedAlertPolicy .refused); a request stuck on a connection an earlier fault
                // broke ends in a time-out instead, whose alert is allowed too.
                phase = .alert
                let rules: [ModelRule] = [.alertFitsCause, .stayOnForm, .inputsSurvive, .analyticsOnlyOnSuccess]
                let kinds = Set(Self.alertKinds(.refused, in: profile) + (brokenConnection ? Self.alertKinds(.timedOut, in: profile) : []))
                var expect: JSONObject = ["outcome": "failure", "alert": ["kind": .array(kinds.sorted().map { .string($0) })],
                                          "inputsIntact": true, "analytics": [], "because": .string(Self.because(rules))]
                if !brokenConnection { expect["journal"] = ["noRequests": true] }
                return ModelledStep(document: ["action": .string(action), "expect": .object(expect)], kind: .attempt(succeeds: false), rules: rules)
            }
            if brokenConnection {
                // Linux's libcurl keeps the connection a drop, reset or cut answer broke, and the next request on it may
                // wait out the request timeout without reaching the server (docs/client-error-mapping.md): the attempt
                // after such a fault may succeed or fail with a connectivity alert, and what follows depends on which.
                phase = .summary
                let rules = shown([.passwordOpensPhoto, .inputsSurvive, .alertFitsCause])
                var expect: JSONObject = ["outcome": ["success", "failure"], "alert": ["kind": ["noConnection", "generic"]], "inputsIntact": true,
                                          "because": .string(Self.because(rules))]
                summary(&expect)
                return ModelledStep(document: ["action": .string(action), "expect": .object(expect)], kind: .ambiguousSubmit, rules: rules)
            }
            creates += 1
            var order: [JSONValue] = [.string(form.calls.create)]
            var failed = fault(.create, creates)
            let goesDown = !lifted && session.faults.contains { $0.kind == .refuseAfterAnswer && $0.step == .create && $0.call == creates }
            if failed == nil, chipTaken {
                // The microchip is stored already (an earlier attempt's create reached the backend): 409, a server error
                // the client cannot prevent, so the generic alert (seed 001 FR-012; scenarios/microchip-conflict-on-retry.json).
                if goesDown { serverDown = true }
                phase = .alert
                let rules: [ModelRule] = [.alertFitsCause, .stayOnForm, .inputsSurvive, .analyticsOnlyOnSuccess, .bodyCarriesCurrentInputs, .twoStepSubmission]
                return ModelledStep(document: [
                    "action": .string(action),
                    "expect": ["outcome": "failure", "alert": ["kind": .array(Self.alertKinds(.httpStatus, in: profile).map { .string($0) })],
                               "inputsIntact": true, "analytics": [], "journal": ["order": .array(order), "sentReport": true],
                               "because": .string(Self.because(rules) + "; the report's microchip is already stored, so the backend answers 409")],
                ], kind: .attempt(succeeds: false), rules: rules)
            }
            // A create the backend handled stores the microchip, whatever a fault then did to its answer.
            if session.microchip != nil, failed?.reachesBackend ?? true { chipTaken = true }
            if failed == nil, !goesDown, let racing = racing(.create, creates) { return timingRace(action, racing) }
            if failed == nil, goesDown {
                // Step 1 is answered, then the port closes: the upload meets a refused connect and never reaches the server.
                serverDown = true
                failed = PlannedFault(.upload, of: form.calls, call: uploads + 1, kind: .refuseAfterAnswer)
            } else if failed == nil {
                uploads += 1
                order.append(.string(form.calls.upload))
                failed = fault(.upload, uploads)
                // An upload the backend handled stores the photo, whatever a fault then did to its answer.
                if failed?.reachesBackend ?? true { photosStored += 1 }
                if failed == nil, let racing = racing(.upload, uploads) { return timingRace(action, racing) }
            }
            var expect: JSONObject = [:]
            var rules: [ModelRule]
            if let failed, failed.step == .upload, failed.kind == .malformed {
                // The seeds disagree on the upload's body (petspot-api "Known disagreements"): a client that needs only
                // the 201 succeeds, one that reads the body shows the generic alert. What follows depends on the reading.
                phase = .summary
                expect["outcome"] = ["success", "failure"]
                expect["alert"] = ["kind": "generic"]
                summary(&expect)
                expect["inputsIntact"] = true
                expect["journal"] = ["order": .array(order), "sentReport": true]
                rules = shown([.passwordOpensPhoto, .bodyCarriesCurrentInputs, .inputsSurvive, .twoStepSubmission])
                expect["because"] = .string(Self.because(rules))
                return ModelledStep(document: ["action": .string(action), "expect": .object(expect)], kind: .attempt(succeeds: true), rules: rules)
            }
            if let failed {
                phase = .alert
                brokenConnection = [.drop, .reset, .truncate].contains(failed.kind)
                expect["outcome"] = "failure"
                expect["alert"] = ["kind": .array(Self.alertKinds(failed.cause, in: profile).map { .string($0) })]
                expect["inputsIntact"] = true
                expect["analytics"] = []
                expect["journal"] = ["order": .array(order), "sentReport": true]
                if case .lateAnswer = failed.kind {
                    // The client gives up before the late answer is due, and the backend drops a request whose connection
                    // closed while it waited: nothing of it reaches the journal (or the store), so there is no body to check.
                    expect["journal"] = nil
                    if failed.step == .upload { photosKnown = false }
                }
                rules = [.alertFitsCause, .stayOnForm, .inputsSurvive, .analyticsOnlyOnSuccess, .bodyCarriesCurrentInputs, .twoStepSubmission]
            } else {
                phase = .summary
                expect["outcome"] = "success"
                summary(&expect)
                expect["inputsIntact"] = true
                expect["analytics"] = .array(profile.success.analytics.map { .string($0) })
                expect["journal"] = ["order": .array(order), "authUserIsCreatedId": true, "sentReport": true]
                rules = shown([.passwordOpensPhoto, .bodyCarriesCurrentInputs, .analyticsOnlyOnSuccess, .inputsSurvive, .twoStepSubmission])
                if action == "retry" { rules.append(.analyticsAfterTryAgain) }
            }
            expect["because"] = .string(Self.because(rules))
            requireVerbatim(inputs, in: &expect)
            return ModelledStep(document: ["action": .string(action), "expect": .object(expect)], kind: .attempt(succeeds: failed == nil, tryAgain: action == "retry"),
                                rules: rules)
        }

        /// A late answer near the timeout on this call, which the machine's speed decides.
        func racing(_ step: FlowCalls.Step, _ call: Int) -> PlannedFault? {
            lifted ? nil : session.faults.first { $0.step == step && $0.call == call && $0.racesTheTimeout }
        }
        /// The attempt whose answer comes near the client's timeout: a success, or a failure with an alert the seeds allow
        /// for a time-out (SeedAlertPolicy `timedOut`). What follows depends on which, so the walk ends here.
        func timingRace(_ action: String, _ racing: PlannedFault) -> ModelledStep {
            phase = .summary
            photosKnown = false
            let rules = shown([.passwordOpensPhoto, .inputsSurvive, .alertFitsCause])
            var expect: JSONObject = [
                "outcome": ["success", "failure"], "alert": ["kind": .array(Self.alertKinds(.timedOut, in: profile).map { .string($0) })], "inputsIntact": true,
                "because": .string(Self.because(rules) + "; \(racing.contract) call \(racing.call) is answered near the client's timeout, so it may succeed or time out"),
            ]
            summary(&expect)
            return ModelledStep(document: ["action": .string(action), "expect": .object(expect)], kind: .ambiguousSubmit, rules: rules)
        }
        func readDetails(_ pet: StoredPet) -> [ModelledStep] {
            let read = DetailsModel.steps(for: pet, read: form.calls.read, firstCall: detailCalls + 1) { fault(.read, $0) != nil }
            detailCalls += read.calls
            return read.steps
        }
        func listStep() -> ModelledStep {
            let rules: [ModelRule] = [.listWithPhotos]
            // The stored announcements with a photo and those whose photo this session's uploads stored (an upload
            // the backend handled stores it even when a fault kept its answer from the client).
            var expect: JSONObject = ["outcome": "success", "journal": ["order": [.string(form.calls.list)]], "because": .string(Self.because(rules))]
            if photosKnown { expect["listed"] = .number(Double(Self.listedCount(session, photosStored: photosStored))) }
            var document: JSONObject = ["action": "list", "expect": .object(expect)]
            if let query = session.listQuery { document["query"] = query.json }
            return ModelledStep(document: .object(document), kind: .list, rules: rules)
        }

        walk: for action in session.actions {
            switch (action, phase) {
            case (.list, .summary) where !offline && !serverDown && !brokenConnection:
                // The list read after a create: the new announcement has its photo, so it is listed.
                steps.append(listStep())
            case (.readDetails(let index), .summary) where !offline && !serverDown && !brokenConnection && session.stored.indices.contains(index):
                steps += readDetails(session.stored[index])
            case (_, .summary):
                break walk
            case (.edit(let field, let value), .form):
                var rules: [ModelRule] = [.inputsSurvive, .noSendWithoutTap, .validationOnlyOnContinue]
                let limit = form.limit(of: field)
                // A field with a length limit may keep, cut or refuse what goes past it (SeedInputRules.afterTyping).
                let accepted = limit == nil ? [value] : SeedInputRules.afterTyping(value, previous: inputs[field] ?? [""], limit: limit)
                inputs[field] = accepted
                if limit != nil { rules = [.rewardLimit, .noSendWithoutTap, .validationOnlyOnContinue] }
                let shown: JSONValue = accepted.count == 1 ? .string(accepted[0]) : .array(accepted.map { .string($0) })
                // Typing validates nothing (001 Clarifications, 003 Notes): the answer to an edit carries no field error.
                steps.append(ModelledStep(document: [
                    "action": "editField", "field": .string(field), "value": .string(value),
                    "expect": ["outcome": "edited", "inputs": .object(JSONObject([(field, shown)])), "fields": .object(JSONObject()),
                               "journal": ["noRequests": true], "because": .string(Self.because(rules))],
                ], kind: .edit(field: field, limited: limit != nil), rules: rules))
            case (.submit, .form), (.doubleTap, .form):
                let name = action == .submit ? "submit" : "doubleTapContinue"
                switch validation(of: inputs) {
                case .rejected(let alternatives):
                    var expect: JSONObject = ["outcome": "invalid"]
                    // A rejected field whose message the profile does not state leaves the texts open: the outcome and
                    // the requests not sent still judge the tap.
                    if let alternatives { expect["fields"] = alternatives.count == 1 ? alternatives[0] : .array(alternatives) }
                    expect["inputsIntact"] = true
                    expect["analytics"] = []
                    expect["journal"] = ["noRequests": true]
                    let rules: [ModelRule] = [.noSendWhileInvalid, .validationMessages, .inputsSurvive, .analyticsOnlyOnSuccess]
                    expect["because"] = .string(Self.because(rules))
                    steps.append(ModelledStep(document: ["action": .string(name), "expect": .object(expect)], kind: .rejectedSubmit, rules: rules))
                case .sends:
                    steps.append(attempt(name))
                case .either:
                    let rules: [ModelRule] = [.validationMessages, .inputsSurvive]
                    steps.append(ModelledStep(document: [
                        "action": .string(name),
                        "expect": ["outcome": ["invalid", "success", "failure"], "inputsIntact": true, "because": .string(Self.because(rules))],
                    ], kind: .ambiguousSubmit, rules: rules))
                    break walk
                }
            case (.retry, .alert):
                steps.append(attempt("retry"))
            case (.cancel, .alert):
                phase = .form
                let rules: [ModelRule] = [.inputsSurvive, .noSendWithoutTap, .stayOnForm, .analyticsOnlyOnSuccess]
                steps.append(ModelledStep(document: [
                    "action": "cancel",
                    "expect": ["outcome": "cancelled", "inputsIntact": true, "analytics": [], "journal": ["noRequests": true],
                               "because": .string(Self.because(rules))],
                ], kind: .cancel, rules: rules))
            case (.goOffline, _) where !offline, (.goOnline, _) where offline:
                offline.toggle()
                let rules: [ModelRule] = [.noSendWithoutTap]
                steps.append(ModelledStep(document: [
                    "action": .string(offline ? "deviceOffline" : "deviceOnline"),
                    "expect": ["outcome": "done", "journal": ["noRequests": true], "because": .string(Self.because(rules))],
                ], kind: .idle, rules: rules))
            case (.serverBack, _):
                serverDown = false
                lifted = true
                steps.append(ModelledStep(document: [
                    "action": "setFaults", "faults": [],
                    "expect": ["because": "the server is reachable again: every fault rule is lifted (docs/faults.md: refuse stays until the rules change)"],
                ], kind: .idle, rules: []))
            // Not on a connection a drop, reset or cut answer broke: the read may wait out the timeout there (libcurl).
            case (.readDetails(let index), .form) where !offline && !serverDown && !brokenConnection && session.stored.indices.contains(index):
                steps += readDetails(session.stored[index])
            case (.list, .form) where !offline && !serverDown && !brokenConnection:
                steps.append(listStep())
            case (.idle, _):
                let rules: [ModelRule] = [.noSendWithoutTap]
                steps.append(ModelledStep(document: [
                    "action": "wait", "ms": .number(Double(Self.idleMs)),
                    "expect": ["journal": ["noRequests": true], "because": .string(Self.because(rules))],
                ], kind: .idle, rules: rules))
            default:
                // Not offered on this screen (Try Again without an alert, typing under the alert): the user cannot do it.
                continue
            }
        }
        return steps
    }

    /// The pattern of the password the profile's summary shows.
    var passwordPattern: String { form.profile.success.managementPassword ?? ".*" }

    /// `rules` as the profile's success shows them: a flow that closes hands no password to a summary.
    func shown(_ rules: [ModelRule]) -> [ModelRule] {
        form.profile.success.shows == .summary ? rules : rules.filter { $0 != .passwordOpensPhoto }
    }

    /// The alerts `profile` allows for `cause` (the seeds' unless told), from the one alert table scenarios and the
    /// proxy judge with.
    public static func alertKinds(_ cause: SeedAlertPolicy.Cause, in profile: ClientProfile = .bundledDefault) -> [String] {
        let allowed = Set(SeedAlertPolicy.readings(for: cause, in: profile).map(\.alert))
        return SeedAlertPolicy.Alert.allCases.filter(allowed.contains).map(\.rawValue)
    }

    static func because(_ rules: [ModelRule]) -> String {
        "the seed model's rules " + rules.map(\.rawValue).joined(separator: ", ") + " (docs/explore.md lists each with its seed lines)"
    }
}
