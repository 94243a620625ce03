// spotcheck-client: the reference external client for `spotcheck run --client`. It wraps PetSpotClient behind the
// JSON-lines protocol of docs/client-protocol.md: one request per line on stdin, one answer per line on stdout,
// diagnostics on stderr. Teams writing a driver for another client (Android, web, UI tests) can copy its shape.
import Foundation
import PetSpotClient

/// The protocol's stdout, kept aside before anything else runs: file descriptor 1 is then pointed at stderr, so a `print`
/// anywhere in the app's code lands in the diagnostics instead of corrupting the answer lines.
let answers: FileHandle = {
    let protocolOut = FileHandle(fileDescriptor: dup(STDOUT_FILENO), closeOnDealloc: true)
    dup2(STDERR_FILENO, STDOUT_FILENO)
    return protocolOut
}()

/// Writes one answer line; stdout is a pipe, so it is written unbuffered to reach the engine at once.
func send(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
        log("cannot encode an answer: \(object)")
        return
    }
    answers.write(data + Data("\n".utf8))
}

/// A diagnostic for the engine's failure report (it shows the tail of stderr).
func log(_ message: String) {
    FileHandle.standardError.write(Data("spotcheck-client: \(message)\n".utf8))
}

/// Why a request cannot be served; answered as `{"id": n, "error": "..."}`.
struct ProtocolError: Error {
    let message: String
}

/// Keeps the form's analytics events until the next answer reports them.
@MainActor
final class AnalyticsLog: AnalyticsSink {
    var events: [String] = []
    func record(_ event: AnalyticsEvent) { events.append(event.name) }
}

/// The protocol's `cause` object: what the networking layer reported behind a failure.
func causeObject(_ cause: FailureCause) -> [String: Any] {
    var o: [String: Any] = ["kind": cause.kind.rawValue]
    if let domain = cause.domain { o["domain"] = domain }
    if let code = cause.code { o["code"] = code }
    if let status = cause.status { o["status"] = status }
    if let detail = cause.detail { o["detail"] = detail }
    if let path = cause.decodingPath { o["decodingPath"] = path }
    return o
}

/// The protocol's `alert` object, with the button titles.
func alertObject(_ kind: AlertKind) -> [String: Any] {
    ["kind": kind.rawValue, "message": kind.message, "buttons": AlertKind.buttonTitles]
}

/// The client for one scenario: the contact form over the report, and the details screen once opened.
@MainActor
final class ClientState {
    let api: AnnouncementAPI
    let form: ContactDetailsForm
    /// The found flow's contact step, when `start` asked for the flow `reportFound`; the missing flow's form serves
    /// every other flow (and an engine that sends none).
    let found: FoundContactForm?
    var details: PetDetailsModel?
    var screen = "form"
    let analytics = AnalyticsLog()

    init(start: [String: Any]) throws(ProtocolError) {
        guard let base = start["baseURL"] as? String, let url = URL(string: base) else {
            throw ProtocolError(message: "\"start\" needs \"baseURL\"")
        }
        let timeoutMs = (start["timeoutMs"] as? NSNumber)?.doubleValue ?? 30_000
        api = AnnouncementAPI(baseURL: url, configuration: .init(requestTimeout: timeoutMs / 1000))
        let report = start["report"] as? [String: Any] ?? [:]
        let draft = try Self.draft(report)
        form = ContactDetailsForm(draft: draft, submitter: AnnouncementSubmissionService(api: api), analytics: analytics)
        if start["flow"] as? String == "reportFound" {
            let found = FoundContactForm(draft: draft, submitter: AnnouncementSubmissionService(api: api))
            found.caregiverPhone = report["caregiverPhone"] as? String ?? ""
            found.currentAddress = report["currentAddress"] as? String ?? ""
            self.found = found
        } else {
            found = nil
        }
        form.onReportSent = { [weak self] _ in self?.screen = "summary" }
    }

    static func draft(_ r: [String: Any]) throws(ProtocolError) -> ReportDraft {
        func text(_ key: String) -> String { r[key] as? String ?? "" }
        var photo: PhotoAttachment?
        if let p = r["photo"] as? [String: Any] {
            guard let b64 = p["base64"] as? String, let bytes = Data(base64Encoded: b64) else {
                throw ProtocolError(message: "the report's photo needs \"base64\" bytes")
            }
            photo = PhotoAttachment(data: bytes, mimeType: p["mimeType"] as? String ?? "image/jpeg")
        }
        var day: CalendarDay?
        if let date = r["lastSeenDate"] as? String {
            guard let parsed = CalendarDay(iso: date) else { throw ProtocolError(message: "lastSeenDate \"\(date)\" is not YYYY-MM-DD") }
            day = parsed
        }
        return ReportDraft(
            microchipNumber: r["microchipNumber"] as? String, photo: photo, lastSeenDate: day,
            species: text("species"), race: text("breed"), sex: text("sex"), age: (r["age"] as? NSNumber)?.intValue,
            latitude: (r["locationLatitude"] as? NSNumber)?.doubleValue, longitude: (r["locationLongitude"] as? NSNumber)?.doubleValue,
            description: text("description"), petName: r["petName"] as? String,
            contact: ContactDetails(phone: text("phone"), email: text("email"), reward: text("reward")))
    }

    func handle(_ action: String, _ request: [String: Any]) async throws(ProtocolError) -> [String: Any] {
        if let found, let answer = try await handleFound(found, action, request) { return answer }
        switch action {
        case "submit":
            return observe(await form.continueTapped())
        case "doubleTapContinue":
            // The second tap lands while the first submission runs.
            let form = self.form
            let second = Task { @MainActor in await form.continueTapped() }
            let first = await form.continueTapped()
            let other = await second.value
            return observe(first == .ignored ? other : first)
        case "retry":
            guard form.alert != nil else { throw ProtocolError(message: "\"retry\" (Try Again) needs a failure alert on screen") }
            return observe(await form.tryAgainTapped())
        case "cancel":
            guard form.alert != nil else { throw ProtocolError(message: "\"cancel\" needs a failure alert on screen") }
            form.cancelTapped()
            return formAnswer("cancelled")
        case "editField":
            let value = request["value"] as? String ?? ""
            switch request["field"] as? String {
            case "phone": form.phone = value
            case "email": form.email = value
            case "reward": form.enterReward(value)
            default: throw ProtocolError(message: "\"editField\" needs \"field\": phone, email or reward")
            }
            return formAnswer("edited")
        case "loadDetails":
            guard let id = request["announcementId"] as? String else { throw ProtocolError(message: "\"loadDetails\" needs \"announcementId\"") }
            let model = PetDetailsModel(announcementID: id, loader: api)
            details = model
            await model.loadPetDetails()
            return detailsAnswer(model)
        case "retryDetails":
            guard let details else { throw ProtocolError(message: "\"retryDetails\" needs \"loadDetails\" first") }
            await details.loadPetDetails()
            return detailsAnswer(details)
        case "deviceOffline", "deviceOnline":
            // The device's network, not the server: requests fail with URLError.notConnectedToInternet (-1009) while offline.
            api.setDeviceOffline(action == "deviceOffline")
            return ["outcome": "done"]
        case "list":
            let lat = (request["lat"] as? NSNumber)?.doubleValue
            let lng = (request["lng"] as? NSNumber)?.doubleValue
            let location = lat.flatMap { la in lng.map { (latitude: la, longitude: $0) } }
            do {
                let items = try await api.announcements(near: location, rangeKm: (request["range"] as? NSNumber)?.intValue)
                return ["outcome": "success", "listedIds": items.map(\.id)]
            } catch {
                let kind = ErrorMapping.alert(for: error)
                log("list failed: \(error)")
                return ["outcome": "failure", "alert": alertObject(kind), "cause": causeObject(ErrorMapping.cause(for: error))]
            }
        default:
            throw ProtocolError(message: "unknown action \"\(action)\"")
        }
    }

    /// The found flow's own actions; `nil` for those both flows share (details, list, the device's network).
    func handleFound(_ found: FoundContactForm, _ action: String, _ request: [String: Any]) async throws(ProtocolError) -> [String: Any]? {
        func answer(_ outcome: SubmitOutcome) -> [String: Any] {
            switch outcome {
            case .invalid: return foundAnswer(found, "invalid")
            case .sent: return foundAnswer(found, "success")
            case .failed, .ignored:
                if let failure = found.lastFailure { log("submission failed: \(failure)") }
                return foundAnswer(found, "failure")
            }
        }
        switch action {
        case "submit":
            return answer(await found.continueTapped())
        case "doubleTapContinue":
            let second = Task { @MainActor in await found.continueTapped() }
            let first = await found.continueTapped()
            let other = await second.value
            return answer(first == .ignored ? other : first)
        case "retry":
            guard found.alert != nil else { throw ProtocolError(message: "\"retry\" (Try Again) needs a failure alert on screen") }
            return answer(await found.tryAgainTapped())
        case "cancel":
            guard found.alert != nil else { throw ProtocolError(message: "\"cancel\" needs a failure alert on screen") }
            found.cancelTapped()
            return foundAnswer(found, "cancelled")
        case "editField":
            let value = request["value"] as? String ?? ""
            switch request["field"] as? String {
            case "phone": found.phone = value
            case "email": found.email = value
            case "caregiverPhone": found.caregiverPhone = value
            case "currentAddress": found.currentAddress = value
            default: throw ProtocolError(message: "\"editField\" of the found flow needs \"field\": phone, email, caregiverPhone or currentAddress")
            }
            return foundAnswer(found, "edited")
        default:
            return nil
        }
    }

    /// A found-flow answer: a success closes the flow and hands no password.
    func foundAnswer(_ found: FoundContactForm, _ outcome: String) -> [String: Any] {
        var answer: [String: Any] = [
            "outcome": outcome, "screen": found.isClosed ? "closed" : "form",
            "inputs": ["phone": found.phone, "email": found.email, "caregiverPhone": found.caregiverPhone, "currentAddress": found.currentAddress], "analytics": [String](),
        ]
        if let alert = found.alert {
            answer["alert"] = alertObject(alert)
            if let failure = found.lastFailure { answer["cause"] = causeObject(ErrorMapping.cause(for: failure)) }
        }
        if outcome == "invalid" { answer["fieldErrors"] = found.errors }
        return answer
    }

    func observe(_ outcome: SubmitOutcome) -> [String: Any] {
        switch outcome {
        case .invalid: return formAnswer("invalid")
        case .sent(let receipt):
            var answer = formAnswer("success")
            answer["managementPassword"] = receipt.managementPassword
            return answer
        case .failed, .ignored:
            if let failure = form.lastFailure { log("submission failed: \(failure)") }
            return formAnswer("failure")
        }
    }

    func formAnswer(_ outcome: String) -> [String: Any] {
        var answer: [String: Any] = [
            "outcome": outcome, "screen": screen,
            "inputs": ["phone": form.phone, "email": form.email, "reward": form.reward],
        ]
        if let alert = form.alert {
            answer["alert"] = alertObject(alert)
            if let failure = form.lastFailure { answer["cause"] = causeObject(ErrorMapping.cause(for: failure)) }
        }
        answer["analytics"] = analytics.events
        analytics.events = []
        if outcome == "invalid" {
            var errors: [String: String] = [:]
            if let e = form.phoneError { errors["phone"] = e }
            if let e = form.emailError { errors["email"] = e }
            answer["fieldErrors"] = errors
        }
        return answer
    }

    func detailsAnswer(_ model: PetDetailsModel) -> [String: Any] {
        switch model.state {
        case .loading:
            return ["outcome": "failure", "details": ["state": "loading"]]
        case .error(let message):
            if let error = model.lastError { log("details failed: \(error)") }
            var answer: [String: Any] = ["outcome": "failure", "details": ["state": "error", "message": message]]
            if let error = model.lastError { answer["cause"] = causeObject(ErrorMapping.cause(for: error)) }
            return answer
        case .loaded(let p):
            let none = "(none)"
            let photo: String
            switch p.photo {
            case .image: photo = "image"
            case .unavailable: photo = PetDetailsPresentation.imageUnavailableText
            }
            let presentation: [String: String] = [
                "id": p.id, "status": p.status.text, "statusColor": p.status.color.rawValue, "reward": p.reward ?? none,
                "lastSeenDate": p.lastSeenDate, "species": p.species, "breed": p.breed, "sex": p.sex, "age": p.age,
                "microchipNumber": p.microchipNumber, "location": p.location, "description": p.description,
                "phone": p.phone ?? none, "email": p.email ?? none, "photo": photo,
            ]
            return ["outcome": "success", "details": ["state": "loaded", "presentation": presentation]]
        }
    }
}

_ = answers
// The mutation benchmark (bench/mutants/) switches one deliberate bug on through the environment; unset, the client is
// the reference. An unknown name stops the client, so a typo cannot pass for a surviving mutant.
if let name = ProcessInfo.processInfo.environment["SPOTCHECK_MUTANT"], !name.isEmpty {
    guard let mutant = ClientMutant(rawValue: name) else {
        log("unknown SPOTCHECK_MUTANT \"\(name)\" (bench/mutants/catalogue.tsv lists them)")
        exit(2)
    }
    ClientMutant.activate(mutant)
}
var state: ClientState?
while let line = readLine() {
    if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
    guard let data = line.data(using: .utf8),
          let request = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
          let id = request["id"] as? NSNumber, let action = request["action"] as? String
    else {
        log("ignoring a line that is not a request object with \"id\" and \"action\": \(line.prefix(200))")
        continue
    }
    if action == "quit" { break }
    do throws(ProtocolError) {
        var answer: [String: Any]
        if action == "start" {
            state = try ClientState(start: request)
            answer = ["outcome": "ready"]
        } else if let current = state {
            answer = try await current.handle(action, request)
        } else {
            throw ProtocolError(message: "the first request must be \"start\"")
        }
        answer["id"] = id
        send(answer)
    } catch {
        log(error.message)
        send(["id": id, "error": error.message])
    }
}
