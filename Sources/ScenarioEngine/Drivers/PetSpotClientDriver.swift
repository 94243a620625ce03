import ContractKit
import Foundation
import PetSpotClient

/// Runs the reference PetSpotClient in-process: its ContactDetailsForm, AnnouncementSubmissionService and PetDetailsModel.
public struct PetSpotClientDriver: ClientDriver {
    /// Builds the submitter the form uses; tests substitute broken ones to prove the engine catches them.
    public typealias SubmitterFactory = @Sendable (AnnouncementAPI) -> any ReportSubmitting

    let makeSubmitter: SubmitterFactory
    let requestTimeoutOverride: TimeInterval?

    /// The reference client; `makeSubmitter` and `requestTimeoutOverride` exist for test doubles of broken clients.
    public init(makeSubmitter: SubmitterFactory? = nil, requestTimeoutOverride: TimeInterval? = nil) {
        self.makeSubmitter = makeSubmitter ?? { AnnouncementSubmissionService(api: $0) }
        self.requestTimeoutOverride = requestTimeoutOverride
    }

    public var description: String { "PetSpotClient (in-process)" }

    public func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
        let timeout = requestTimeoutOverride ?? Double(context.settings.requestTimeoutMs) / 1000
        let api = AnnouncementAPI(baseURL: context.baseURL, configuration: .init(requestTimeout: timeout))
        let draft = try Self.draft(from: context.report)
        let submitter = makeSubmitter(api)
        return await PetSpotClientSession(api: api, draft: draft, submitter: submitter)
    }

    /// The report as the client's draft of steps 1 to 4.
    public static func draft(from report: ReportData) throws(DriverError) -> ReportDraft {
        let f = report.fields
        var lastSeen: CalendarDay?
        if let text = f["lastSeenDate"]?.stringValue {
            guard let day = CalendarDay(iso: text) else { throw DriverError("the report's lastSeenDate \"\(text)\" is not YYYY-MM-DD") }
            lastSeen = day
        }
        return ReportDraft(
            microchipNumber: f["microchipNumber"]?.stringValue,
            photo: report.photo.map { PhotoAttachment(data: $0.bytes, mimeType: $0.mimeType) },
            lastSeenDate: lastSeen,
            species: report.text("species"), race: report.text("breed"), sex: report.text("sex"),
            age: f["age"]?.intValue, latitude: f["locationLatitude"]?.numberValue, longitude: f["locationLongitude"]?.numberValue,
            description: report.text("description"), petName: f["petName"]?.stringValue,
            contact: ContactDetails(phone: report.text("phone"), email: report.text("email"), reward: report.text("reward")))
    }
}

/// One scenario's client: the form and the details screen live on the main actor, as in the app.
@MainActor
final class PetSpotClientSession: ClientSession {
    let api: AnnouncementAPI
    let form: ContactDetailsForm
    var details: PetDetailsModel?
    var screen = "form"

    init(api: AnnouncementAPI, draft: ReportDraft, submitter: any ReportSubmitting) {
        self.api = api
        form = ContactDetailsForm(draft: draft, submitter: submitter)
        form.onReportSent = { [weak self] _ in self?.screen = "summary" }
    }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        switch action {
        case .submit:
            return observe(await form.continueTapped())
        case .retry:
            guard form.alert != nil else { throw DriverError("\"Try Again\" was tapped but no failure alert is shown") }
            return observe(await form.tryAgainTapped())
        case .cancel:
            guard form.alert != nil else { throw DriverError("\"Cancel\" was tapped but no failure alert is shown") }
            form.cancelTapped()
            return formObservation(.cancelled)
        case .editField(let field, let value):
            switch field {
            case "phone": form.phone = value
            case "email": form.email = value
            default: form.enterReward(value)
            }
            return formObservation(.edited)
        case .loadDetails(let id):
            let model = PetDetailsModel(announcementID: id, loader: api)
            details = model
            await model.loadPetDetails()
            return detailsObservation(model)
        case .retryDetails:
            guard let details else { throw DriverError("\"retryDetails\" needs a details screen opened by \"loadDetails\" first") }
            await details.loadPetDetails()
            return detailsObservation(details)
        case .list(let lat, let lng, let range):
            let location = lat.flatMap { la in lng.map { (latitude: la, longitude: $0) } }
            do {
                let items = try await api.announcements(near: location, rangeKm: range)
                return ClientObservation(outcome: .success, listedIDs: items.map(\.id))
            } catch {
                let kind = ErrorMapping.alert(for: error)
                return ClientObservation(outcome: .failure, alert: ObservedAlert(kind: kind.rawValue, message: kind.message))
            }
        }
    }

    func close() async {}

    private func observe(_ outcome: SubmitOutcome) -> ClientObservation {
        switch outcome {
        case .invalid:
            return formObservation(.invalid)
        case .sent(let receipt):
            var o = formObservation(.success)
            o.managementPassword = receipt.managementPassword
            return o
        case .failed:
            return formObservation(.failure)
        case .ignored:
            return formObservation(.failure)
        }
    }

    private func formObservation(_ outcome: ClientOutcome) -> ClientObservation {
        var errors: [String: String] = [:]
        if let e = form.phoneError { errors["phone"] = e }
        if let e = form.emailError { errors["email"] = e }
        return ClientObservation(
            outcome: outcome, alert: form.alert.map { ObservedAlert(kind: $0.rawValue, message: $0.message) },
            fieldErrors: outcome == .invalid ? errors : [:],
            inputs: ["phone": form.phone, "email": form.email, "reward": form.reward], screen: screen)
    }

    private func detailsObservation(_ model: PetDetailsModel) -> ClientObservation {
        switch model.state {
        case .loading:
            return ClientObservation(outcome: .failure, details: ObservedDetails(state: "loading"))
        case .error(let message):
            return ClientObservation(outcome: .failure, details: ObservedDetails(state: "error", message: message))
        case .loaded(let p):
            return ClientObservation(outcome: .success, details: ObservedDetails(state: "loaded", presentation: Self.presentationValues(p)))
        }
    }

    /// The presented values under the names scenario files use (docs/client-protocol.md lists them).
    static func presentationValues(_ p: PetDetailsPresentation) -> [String: String] {
        let none = "(none)"
        let photo: String
        switch p.photo {
        case .image: photo = "image"
        case .unavailable: photo = PetDetailsPresentation.imageUnavailableText
        }
        return [
            "id": p.id, "status": p.status.text, "statusColor": p.status.color.rawValue, "reward": p.reward ?? none,
            "lastSeenDate": p.lastSeenDate, "species": p.species, "breed": p.breed, "sex": p.sex, "age": p.age,
            "microchipNumber": p.microchipNumber, "location": p.location, "description": p.description,
            "phone": p.phone ?? none, "email": p.email ?? none, "photo": photo,
        ]
    }
}
