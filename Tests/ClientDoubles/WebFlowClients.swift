// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// Web clients of the missing flow as 041 and 043 describe them, built on the reference client: a failure shows a toast
/// with the web app's own text and no buttons, and the user sends again by clicking Continue (there is no Try Again).
enum WebFlowClients {
    /// The toast text these doubles show; no source fixes it (043 FR-009, FR-010 ask for "user-friendly" messages).
    static let toast = "We could not send your report. Please try again."

    /// Follows 041 and 043.
    struct FollowsTheWebSpec: ClientDriver {
        var description: String { "web double: toasts, Continue sends again" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            WebSession(inner: try await PetSpotClientDriver().open(context), endsOnSummaryAfterAFailedUpload: false)
        }
    }

    /// The web app's real bug (043 FR-006, FR-010 forbid it): a photo upload that fails, however it fails, still ends
    /// on the summary, showing a password and no error. A failed create is shown as an error, as the web spec says.
    struct EndsOnTheSummaryAfterAFailure: ClientDriver {
        var description: String { "web double: a failed photo upload ends on the summary" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            let uploads = UploadFailures()
            let inner = try await PetSpotClientDriver(makeSubmitter: { api in
                WatchingSubmitter(inner: AnnouncementSubmissionService(api: api), uploads: uploads)
            }).open(context)
            return WebSession(inner: inner, endsOnSummaryAfterAFailedUpload: true, uploads: uploads)
        }
    }

    /// Shows the seeds' alert buttons on its toast (043 FR-011: the retry is Continue, there is no Try Again).
    struct ShowsTryAgain: ClientDriver {
        var description: String { "web double, broken: its toast offers Try Again and Cancel" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            Rewriting(inner: WebSession(inner: try await PetSpotClientDriver().open(context), endsOnSummaryAfterAFailedUpload: false)) { _, observation in
                var o = observation
                if let alert = o.alert { o.alert = ObservedAlert(kind: alert.kind, message: alert.message, buttons: AlertKind.buttonTitles) }
                return o
            }
        }
    }

    /// Whether the last submission failed at its photo upload, as the submitter saw it.
    final class UploadFailures: @unchecked Sendable {
        private let lock = NSLock()
        private var failed = false
        var last: Bool {
            get { lock.withLock { failed } }
            set { lock.withLock { failed = newValue } }
        }
    }

    /// The reference submitter, telling `uploads` whether the photo upload is what failed.
    struct WatchingSubmitter: ReportSubmitting {
        let inner: AnnouncementSubmissionService
        let uploads: UploadFailures

        func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
            uploads.last = false
            do {
                return try await inner.submit(draft)
            } catch {
                if case .photoUploadFailed = error { uploads.last = true }
                throw error
            }
        }
    }

    /// The reference session seen through the web app's screen.
    actor WebSession: ClientSession {
        /// Whether the last action ended in a failure, so the next Continue sends again.
        private var failureShown = false
        let inner: any ClientSession
        let endsOnSummaryAfterAFailedUpload: Bool
        let uploads: UploadFailures?

        init(inner: any ClientSession, endsOnSummaryAfterAFailedUpload: Bool, uploads: UploadFailures? = nil) {
            self.inner = inner
            self.endsOnSummaryAfterAFailedUpload = endsOnSummaryAfterAFailedUpload
            self.uploads = uploads
        }

        func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
            // Continue after a failure sends everything again: for the reference client that is Try Again.
            let sent: ClientAction = action == .submit && failureShown ? .retry : action
            var o = try await inner.perform(sent)
            failureShown = o.outcome == .failure
            // A toast has no buttons: there is no Try Again or Cancel (043 FR-011).
            if let alert = o.alert { o.alert = ObservedAlert(kind: alert.kind == "noConnection" ? "generic" : alert.kind, message: WebFlowClients.toast, buttons: []) }
            if endsOnSummaryAfterAFailedUpload, o.outcome == .failure, uploads?.last == true, sent == .submit || sent == .retry {
                o.outcome = .success
                o.alert = nil
                o.screen = "summary"
                o.managementPassword = "000000"
                failureShown = false
            }
            return o
        }

        func close() async { await inner.close() }
    }
}
#endif
