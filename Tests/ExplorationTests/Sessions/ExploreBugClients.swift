import Foundation
import PetSpotClient

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Broken clients for the bug kinds the scenario library missed (issue 21): each wraps the reference client and
/// makes one mistake a mobile team could ship.
enum ExploreBugClients {
    /// Requires an international number: a phone without a leading `+` (a national format such as `600-700-800`) is refused.
    static let rejectsNationalPhone = OwnRules(name: "rejects national phone formats", phone: { phone in
        phone.trimmingCharacters(in: .whitespaces).hasPrefix("+") && ContactValidation.isValidPhone(phone)
    })
    /// Refuses plus addressing (`jan+pets@example.com`).
    static let rejectsPlusEmail = OwnRules(name: "rejects plus-addressed email", email: { email in
        !email.contains("+") && ContactValidation.isValidEmail(email)
    })
    /// Accepts an email without a dot in the domain (`owner@example`).
    static let acceptsDotlessEmail = OwnRules(name: "accepts email without a dot in the domain", email: { email in
        let parts = email.trimmingCharacters(in: .whitespaces).split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !email.contains(" ")
    })

    /// The reward limit counted in UTF-8 bytes: 61 "é" (122 bytes) are refused at entry.
    struct CountsRewardBytes: ClientDriver {
        var description: String { "broken: reward limit counted in bytes" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            guard let real = try await PetSpotClientDriver().open(context) as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
            return await ByteLimitedReward(inner: real)
        }
    }

    /// Trims the reward before sending it (seed 001 FR-006 says verbatim).
    static let trimsReward = SpecBreakingClients.tampering { body, _ in body.reward = body.reward?.trimmingCharacters(in: .whitespaces) }

    /// Keeps the body of the first attempt and sends it again on every later one, whatever the user edited since.
    struct SendsFirstAttemptBody: ClientDriver {
        var description: String { "broken: resends the first attempt's body" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            try await PetSpotClientDriver(makeSubmitter: { api in FirstBodySubmitter(api: api) }).open(context)
        }
    }

    /// After an invalid attempt, Continue re-checks only the field edited last: fixing one field sends the other invalid one.
    struct ChecksOnlyLastEditedField: ClientDriver {
        var description: String { "broken: re-validates only the last edited field" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            guard let real = try await PetSpotClientDriver().open(context) as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
            return await LastFieldValidation(inner: real)
        }
    }

    /// Formats the details date with `YYYY` (the week-based year): Dec 29-31 of some years show the next year.
    struct WeekBasedYearDate: ClientDriver {
        var description: String { "broken: details date with the week-based year" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if let shown = o.details?.presentation["lastSeenDate"] { o.details?.presentation["lastSeenDate"] = Self.weekBased(shown) }
                return o
            }
        }

        static func weekBased(_ shown: String) -> String {
            let read = DateFormatter()
            read.locale = Locale(identifier: "en_US_POSIX")
            read.timeZone = TimeZone(identifier: "UTC")
            read.dateFormat = "MMM d, yyyy"
            guard let date = read.date(from: shown) else { return shown }
            read.dateFormat = "MMM d, YYYY"
            return read.string(from: date)
        }
    }

    /// Shows the microchip number as stored, without the seeds' dashes.
    struct MicrochipWithoutDashes: ClientDriver {
        var description: String { "broken: microchip without dashes" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if let shown = o.details?.presentation["microchipNumber"], shown != "—" {
                    o.details?.presentation["microchipNumber"] = shown.replacingOccurrences(of: "-", with: "")
                }
                return o
            }
        }
    }

    /// Emits missing_pet.step4_completed on a failed attempt too.
    struct AnalyticsOnFailure: ClientDriver {
        var description: String { "broken: analytics on a failed attempt" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if o.outcome == .failure { o.analytics = (o.analytics ?? []) + ["missing_pet.step4_completed"] }
                return o
            }
        }
    }

    /// Try Again after a step-2 failure creates a second announcement but uploads the photo to the first one, and shows
    /// the second one's password.
    struct UploadsToFirstAnnouncement: ClientDriver {
        var description: String { "broken: Try Again uploads the photo to the first announcement" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            try await PetSpotClientDriver(makeSubmitter: { api in FirstAnnouncementUploader(api: api) }).open(context)
        }
    }

}

/// The reference client with its own phone or email rule in front of the form's.
struct OwnRules: ClientDriver {
    let name: String
    var phone: @Sendable (String) -> Bool = ContactValidation.isValidPhone
    var email: @Sendable (String) -> Bool = ContactValidation.isValidEmail
    var description: String { "broken: \(name)" }
    func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
        guard let real = try await PetSpotClientDriver().open(context) as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
        return await OwnValidationSession(inner: real, isValid: { p, e in (phone(p), email(e)) })
    }
}

/// After an invalid attempt, validates only the last edited field.
@MainActor
final class LastFieldValidation: ClientSession {
    let inner: PetSpotClientSession
    var lastEdited: String?
    var afterInvalid = false

    init(inner: PetSpotClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        if case .editField(let field, _) = action { lastEdited = field }
        guard action == .submit, afterInvalid, let field = lastEdited, field != "reward" else {
            let o = try await inner.perform(action)
            if action == .submit || action == .doubleTapContinue { afterInvalid = o.outcome == .invalid }
            return o
        }
        let form = inner.form
        let ok = field == "phone" ? ContactValidation.isValidPhone(form.phone) : ContactValidation.isValidEmail(form.email)
        guard ok else { return try await inner.perform(action) }
        afterInvalid = false
        // The other field is trusted: send as if both were valid.
        return await OwnValidationSession(inner: inner, isValid: { _, _ in (true, true) }).send()
    }

    func close() async { await inner.close() }
}

/// Refuses a reward whose UTF-8 form is over 120 bytes (the old value stays).
@MainActor
final class ByteLimitedReward: ClientSession {
    let inner: PetSpotClientSession
    init(inner: PetSpotClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        if case .editField("reward", let value) = action, value.utf8.count > 120 {
            return try await inner.perform(.editField(field: "reward", value: inner.form.reward))
        }
        return try await inner.perform(action)
    }

    func close() async { await inner.close() }
}

/// Builds the body once, at the first attempt, and sends that one ever after.
actor FirstBodySubmitter: ReportSubmitting {
    let api: AnnouncementAPI
    var firstBody: NewAnnouncement?
    init(api: AnnouncementAPI) { self.api = api }

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        guard let fresh = draft.newAnnouncement(), let photo = draft.photo else { throw .invalidDraft(draft.submissionProblems()) }
        let body = firstBody ?? fresh
        firstBody = body
        let created: CreatedAnnouncement
        do { created = try await api.createAnnouncement(body) } catch { throw .createFailed(error) }
        do { try await api.uploadPhoto(photo, announcementID: created.id, managementPassword: created.managementPassword) } catch {
            throw .photoUploadFailed(announcementID: created.id, error: error)
        }
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.managementPassword)
    }
}

/// Remembers the first announcement whose upload failed and uploads every later photo there.
actor FirstAnnouncementUploader: ReportSubmitting {
    let api: AnnouncementAPI
    var first: CreatedAnnouncement?
    init(api: AnnouncementAPI) { self.api = api }

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        guard let body = draft.newAnnouncement(), let photo = draft.photo else { throw .invalidDraft(draft.submissionProblems()) }
        let created: CreatedAnnouncement
        do { created = try await api.createAnnouncement(body) } catch { throw .createFailed(error) }
        let target = first ?? created
        do { try await api.uploadPhoto(photo, announcementID: target.id, managementPassword: target.managementPassword) } catch {
            if first == nil { first = created }
            throw .photoUploadFailed(announcementID: target.id, error: error)
        }
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.managementPassword)
    }
}
