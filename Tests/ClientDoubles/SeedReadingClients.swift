// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Correct clients that each take another reading the seeds allow; every one must pass the bundled scenarios.
enum SeedReadingClients {
    /// The reference client with every answer rewritten by `rewrite`.
    struct Rewritten: ClientDriver {
        let name: String
        let rewrite: @Sendable (ClientAction, ClientObservation) -> ClientObservation
        var description: String { "reading: \(name)" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context), rewrite: rewrite)
        }
    }

    /// 003 T044 to the letter: notConnectedToInternet or timedOut → "No connection", every other failure → generic.
    static let t044Mapping = Rewritten(name: "003 T044 mapping") { _, observation in
        var o = observation
        guard o.alert != nil, let cause = o.cause else { return o }
        let kind: AlertKind = cause.kind == .urlError && [-1009, -1001].contains(cause.code ?? 0) ? .noConnection : .generic
        o.alert = ObservedAlert(kind: kind.rawValue, message: kind.message, buttons: AlertKind.buttonTitles)
        return o
    }

    /// Sends the email with only its domain lower-cased (`Owner@Example.COM` → `Owner@example.com`): the domain of an
    /// address is case-insensitive, and seed 001 FR-005 makes the whole email case-insensitive.
    static let lowerCasesEmailDomain = SpecBreakingClients.tampering { body, _ in
        guard let email = body.email, let at = email.lastIndex(of: "@") else { return }
        body.email = String(email[..<at]) + email[at...].lowercased()
    }

    /// 003 T031: the phone is validated first and the form returns early, so only the phone error shows.
    static let returnEarlyValidation = Rewritten(name: "003 T031 return-early validation") { _, observation in
        var o = observation
        if o.outcome == .invalid, o.fieldErrors["phone"] != nil { o.fieldErrors = ["phone": o.fieldErrors["phone"] ?? ""] }
        return o
    }

    /// iOS lays a `.cancel` button out first.
    static let cancelFirstButtons = Rewritten(name: "Cancel-first buttons") { _, observation in
        var o = observation
        if let alert = o.alert, let buttons = alert.buttons { o.alert?.buttons = Array(buttons.reversed()) }
        return o
    }

    /// Splits the seeds' text into a title and a message, as a UIAlertController does.
    static let titleAndMessage = Rewritten(name: "title + message alerts") { _, observation in
        var o = observation
        if let alert = o.alert {
            let parts = alert.message.split(separator: ".", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            o.alert = ObservedAlert(kind: alert.kind, message: parts.count > 1 ? parts[1] : "", buttons: alert.buttons, title: parts[0])
        }
        return o
    }

    /// Accepts 200 for the photo upload (001 Clarifications: "HTTP 200/201").
    struct Accepts200ForUpload: ClientDriver {
        var description: String { "reading: 200 or 201 for the upload" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            try await PetSpotClientDriver(makeSubmitter: { api in Lenient200Submitter(api: api) }).open(context)
        }
    }

    /// Refuses a report without a photo at step 2 (seed 000's "Photo is mandatory" toast) and one without a location at step 3.
    struct StopsEarlier: ClientDriver {
        var description: String { "reading: the app stops an incomplete report early" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            if context.report.photo == nil {
                throw DriverError("stopped", reason: .stoppedEarlier(EarlierStop(step: 2, message: "Photo is mandatory")))
            }
            if context.report.fields["locationLatitude"] == nil, context.report.fields["locationLongitude"] == nil {
                throw DriverError("stopped", reason: .stoppedEarlier(EarlierStop(step: 3, message: "Location is required")))
            }
            return try await PetSpotClientDriver().open(context)
        }
    }

    /// A driver that cannot take its device offline (nor perform any optional action).
    struct WithoutOptionalActions: ClientDriver {
        var description: String { "driver without optional actions" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Declining(inner: try await PetSpotClientDriver().open(context))
        }
    }
}

/// Answers `unsupported` to every optional action, the rest as the reference client.
struct Declining: ClientSession {
    let inner: any ClientSession
    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        if action.isOptional { throw DriverError("unsupported", reason: .unsupported(action: action.name)) }
        return try await inner.perform(action)
    }
    func close() async { await inner.close() }
}

/// The reference two-step submission, except that the photo upload also succeeds on 200.
struct Lenient200Submitter: ReportSubmitting {
    let api: AnnouncementAPI

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        let problems = draft.submissionProblems()
        guard problems.isEmpty, let body = draft.newAnnouncement(), let photo = draft.photo else { throw .invalidDraft(problems) }
        let created: CreatedAnnouncement
        do {
            created = try await api.createAnnouncement(body)
        } catch {
            throw .createFailed(error)
        }
        do {
            try await api.uploadPhoto(photo, announcementID: created.id, managementPassword: created.managementPassword)
        } catch {
            // This reading of 001 Clarifications ("HTTP 200/201") counts a 200 for the upload as stored.
            guard case .http(let failure) = error, failure.status == 200 else { throw .photoUploadFailed(announcementID: created.id, error: error) }
        }
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.managementPassword)
    }
}
#endif
