// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// More broken clients, one realistic bug each, for the classes the engine once missed.
enum SpecBreakingClients {
    /// Validates the phone with its own rule instead of the seeds' 7–11 digits.
    struct OwnPhoneRule: ClientDriver {
        let name: String
        let isValidPhone: @Sendable (String) -> Bool
        var description: String { "broken: \(name)" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            guard let real = try await PetSpotClientDriver().open(context) as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
            return await OwnValidationSession(inner: real, isValidPhone: isValidPhone)
        }

        /// Accepts 8 to 12 digits: 7 is refused, 12 passes.
        static let offByOne = OwnPhoneRule(name: "phone limits off by one (8-12 digits)") { phone in
            (8...12).contains(phone.filter(\.isNumber).count)
        }
        /// Counts the digits and ignores everything else, letters and inner "+" included.
        static let acceptsLetters = OwnPhoneRule(name: "phone accepts letters") { phone in
            (7...11).contains(phone.filter(\.isNumber).count)
        }
    }

    /// Sends a create body the submission changed after the user's input.
    static func tampering(_ tamper: @escaping @Sendable (inout NewAnnouncement, ClientContext) -> Void) -> TamperingDriver {
        TamperingDriver(tamper: tamper)
    }

    /// Drops the reward from the create body.
    static let dropsTheReward = tampering { body, _ in body.reward = nil }
    /// Reports the pet as found instead of missing.
    static let sendsFound = tampering { body, _ in body.status = "FOUND" }
    /// Sends the phone the form started with, not the edited one.
    static let sendsStalePhone = tampering { body, context in body.phone = context.report.text("phone") }
    /// Formats the date as dd/MM/yyyy.
    static let wrongDateFormat = tampering { body, _ in
        let parts = body.lastSeenDate.split(separator: "-")
        if parts.count == 3 { body.lastSeenDate = "\(parts[2])/\(parts[1])/\(parts[0])" }
    }

    /// The reference client with a create body changed by `tamper`.
    struct TamperingDriver: ClientDriver {
        let tamper: @Sendable (inout NewAnnouncement, ClientContext) -> Void
        var description: String { "broken: tampers with the create body" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            let tamper = self.tamper
            return try await PetSpotClientDriver(makeSubmitter: { api in
                TamperingSubmitter(api: api) { body in tamper(&body, context) }
            }).open(context)
        }
    }

    /// After a failure, tries again by itself once the network might be back, without the user tapping.
    struct RetriesOnItsOwn: ClientDriver {
        var description: String { "broken: retries on its own" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            AutoRetrying(inner: try await PetSpotClientDriver().open(context))
        }
    }

    /// A double tap runs two submissions (Continue is not disabled while submitting).
    struct SubmitsTwiceOnDoubleTap: ClientDriver {
        var description: String { "broken: double tap submits twice" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            TwiceSubmitting(inner: try await PetSpotClientDriver().open(context))
        }
    }
}

/// The in-process client with its own phone and email rules in front of the form's: it validates with them, then runs
/// the reference two-step submission and error mapping itself, and answers Try Again and Cancel for its own alert.
@MainActor
final class OwnValidationSession: ClientSession {
    let inner: PetSpotClientSession
    let isValid: @Sendable (_ phone: String, _ email: String) -> (phone: Bool, email: Bool)
    /// The alert of a failed submission this session ran itself.
    var ownAlert: ObservedAlert?

    init(inner: PetSpotClientSession, isValid: @escaping @Sendable (_ phone: String, _ email: String) -> (phone: Bool, email: Bool)) {
        self.inner = inner
        self.isValid = isValid
    }

    convenience init(inner: PetSpotClientSession, isValidPhone: @escaping @Sendable (String) -> Bool) {
        self.init(inner: inner, isValid: { phone, email in (isValidPhone(phone), ContactValidation.isValidEmail(email)) })
    }

    var inputs: [String: String] { ["phone": inner.form.phone, "email": inner.form.email, "reward": inner.form.reward] }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        switch action {
        case .retry where ownAlert != nil:
            return await send()
        case .cancel where ownAlert != nil:
            ownAlert = nil
            return ClientObservation(outcome: .cancelled, inputs: inputs, screen: "form", analytics: [])
        case .submit, .doubleTapContinue:
            let verdict = isValid(inner.form.phone, inner.form.email)
            var errors: [String: String] = [:]
            if !verdict.phone { errors["phone"] = ContactValidation.phoneMessage }
            if !verdict.email { errors["email"] = ContactValidation.emailMessage }
            guard errors.isEmpty else { return ClientObservation(outcome: .invalid, fieldErrors: errors, inputs: inputs, screen: "form", analytics: []) }
            return await send()
        default:
            return try await inner.perform(action)
        }
    }

    /// The reference two-step submission of the form's draft, bypassing the form's own validation.
    func send() async -> ClientObservation {
        do {
            let receipt = try await AnnouncementSubmissionService(api: inner.api).submit(inner.form.draft)
            ownAlert = nil
            return ClientObservation(outcome: .success, managementPassword: receipt.managementPassword, inputs: inputs, screen: "summary",
                                     analytics: ["missing_pet.step4_completed"])
        } catch {
            let kind = ErrorMapping.alert(for: error)
            let alert = ObservedAlert(kind: kind.rawValue, message: kind.message, buttons: AlertKind.buttonTitles)
            ownAlert = alert
            return ClientObservation(outcome: .failure, alert: alert, inputs: inputs, screen: "form",
                                     cause: PetSpotClientSession.observed(ErrorMapping.cause(for: error)), analytics: [])
        }
    }

    func close() async { await inner.close() }
}

/// The reference two-step submission with the create body changed before it is sent.
struct TamperingSubmitter: ReportSubmitting {
    let api: AnnouncementAPI
    let tamper: @Sendable (inout NewAnnouncement) -> Void

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        guard var body = draft.newAnnouncement(), let photo = draft.photo else { throw .invalidDraft(draft.submissionProblems()) }
        tamper(&body)
        let created: CreatedAnnouncement
        do { created = try await api.createAnnouncement(body) } catch { throw .createFailed(error) }
        do {
            try await api.uploadPhoto(photo, announcementID: created.id, managementPassword: created.managementPassword)
        } catch {
            throw .photoUploadFailed(announcementID: created.id, error: error)
        }
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.managementPassword)
    }
}

/// Starts "Try Again" by itself shortly after every failure.
struct AutoRetrying: ClientSession {
    let inner: any ClientSession

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        let observation = try await inner.perform(action)
        if observation.outcome == .failure, observation.alert != nil {
            let inner = self.inner
            Task {
                // Until an attempt gets through, a few times: a single retry made while the scenario still refuses
                // connections would leave no request in the journal, and the scenario's wait would see nothing to blame.
                for _ in 0..<4 {
                    try? await Task.sleep(for: .milliseconds(300))
                    if (try? await inner.perform(.retry))?.outcome != .failure { break }
                }
            }
        }
        return observation
    }

    func close() async { await inner.close() }
}

/// Answers a double tap with two full submissions.
struct TwiceSubmitting: ClientSession {
    let inner: any ClientSession

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        guard action == .doubleTapContinue else { return try await inner.perform(action) }
        _ = try await inner.perform(.submit)
        return try await inner.perform(.submit)
    }

    func close() async { await inner.close() }
}
#endif
