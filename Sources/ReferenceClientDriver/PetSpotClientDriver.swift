import ContractKit
import ContractModel
import Foundation
import ScenarioEngine
import PetSpotClient

/// Runs the reference PetSpotClient in-process: its ContactDetailsForm (or, for the found flow, FoundContactForm),
/// AnnouncementSubmissionService and PetDetailsModel.
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

    /// The text shown to people.
    public var description: String { "PetSpotClient (in-process)" }

    /// Starts a fresh client for one scenario.
    public func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
        let timeout = requestTimeoutOverride ?? Double(context.settings.requestTimeoutMs) / 1000
        let api = AnnouncementAPI(baseURL: context.baseURL, configuration: .init(requestTimeout: timeout))
        let draft = try Self.draft(from: context.report)
        let submitter = makeSubmitter(api)
        // The app's two report flows; any other flow name gets the seeds' missing flow, as an adapter of one flow would.
        if context.flow == Self.foundFlow {
            return await PetSpotFoundFlowSession(api: api, draft: draft, submitter: submitter, report: context.report)
        }
        return await PetSpotClientSession(api: api, draft: draft, submitter: submitter)
    }

    /// The flow name that opens the found-pet report (scenarios/ios-found-pet/profile.json); every other opens the missing one.
    public static let foundFlow = "reportFound"

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
