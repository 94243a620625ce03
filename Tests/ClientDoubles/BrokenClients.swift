// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Test doubles of broken clients: each wraps the reference client and breaks one behaviour the seeds require.
enum BrokenClients {
    /// Shows the generic alert for every failure, so "offline" is never reported as such.
    struct MapsEveryErrorToGeneric: ClientDriver {
        var description: String { "broken: maps every error to generic" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if o.alert != nil { o.alert = ObservedAlert(kind: "generic", message: AlertKind.generic.message) }
                return o
            }
        }
    }

    /// Leaves the form after a failure (e.g. pops back to step 3) instead of staying on it with the alert.
    struct NavigatesAwayOnFailure: ClientDriver {
        var description: String { "broken: navigates away on failure" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if o.outcome == .failure { o.screen = "animalDescription" }
                return o
            }
        }
    }

    /// Empties every input when the user taps Cancel in the alert.
    struct ClearsInputsOnCancel: ClientDriver {
        var description: String { "broken: clears inputs on Cancel" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            let session = try await PetSpotClientDriver().open(context)
            guard let real = session as? PetSpotClientSession else { throw DriverError("expected the in-process session") }
            return await ClearingSession(inner: real)
        }
    }

    /// Uses a 60 s request timeout whatever the scenario asks for, so a stalled server leaves the user waiting.
    static let ignoresItsTimeout = PetSpotClientDriver(requestTimeoutOverride: 60)

    /// After a step-2 failure, Try Again only re-uploads the photo for the announcement it already created.
    static let retriesOnlyStep2 = PetSpotClientDriver(makeSubmitter: { api in ResumingSubmitter(api: api) })
}

/// Passes actions to a real session and rewrites what it reports.
struct Rewriting: ClientSession {
    let inner: any ClientSession
    let rewrite: @Sendable (ClientAction, ClientObservation) -> ClientObservation

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        rewrite(action, try await inner.perform(action))
    }

    func close() async { await inner.close() }
}

/// The in-process session with Cancel wiping the form.
@MainActor
final class ClearingSession: ClientSession {
    let inner: PetSpotClientSession

    init(inner: PetSpotClientSession) { self.inner = inner }

    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        var observation = try await inner.perform(action)
        if action == .cancel {
            inner.form.phone = ""
            inner.form.email = ""
            inner.form.reward = ""
            observation.inputs = ["phone": "", "email": "", "reward": ""]
        }
        return observation
    }

    func close() async { await inner.close() }
}

/// A submitter that remembers the announcement of a failed step 2 and, on the next submission, only uploads the photo.
actor ResumingSubmitter: ReportSubmitting {
    let api: AnnouncementAPI
    var pending: (id: String, password: String)?

    init(api: AnnouncementAPI) { self.api = api }

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        guard let photo = draft.photo, let body = draft.newAnnouncement() else { throw .invalidDraft(draft.submissionProblems()) }
        let created: (id: String, password: String)
        if let pending {
            created = pending
        } else {
            do {
                let answer = try await api.createAnnouncement(body)
                created = (answer.id, answer.managementPassword)
            } catch {
                throw .createFailed(error)
            }
        }
        do {
            try await api.uploadPhoto(photo, announcementID: created.id, managementPassword: created.password)
        } catch {
            pending = created
            throw .photoUploadFailed(announcementID: created.id, error: error)
        }
        pending = nil
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.password)
    }
}
#endif
