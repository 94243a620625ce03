// Test doubles shared by test targets; @testable needs a debug build, so release builds compile this module empty.
#if DEBUG
import Foundation
import PetSpotClient

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

    /// The web app's real bug (043 FR-006, FR-010 forbid it), broadened: a submission failing with HTTP 500 still ends
    /// on the summary, showing a password and no error (the observation does not say which step failed).
    struct EndsOnTheSummaryAfterAFailure: ClientDriver {
        var description: String { "web double: a failed submission ends on the summary" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            WebSession(inner: try await PetSpotClientDriver().open(context), endsOnSummaryAfterAFailedUpload: true)
        }
    }

    /// The reference session seen through the web app's screen.
    actor WebSession: ClientSession {
        /// Whether the last action ended in a failure, so the next Continue sends again.
        private var failureShown = false
        let inner: any ClientSession
        let endsOnSummaryAfterAFailedUpload: Bool

        init(inner: any ClientSession, endsOnSummaryAfterAFailedUpload: Bool) {
            self.inner = inner
            self.endsOnSummaryAfterAFailedUpload = endsOnSummaryAfterAFailedUpload
        }

        func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
            // Continue after a failure sends everything again: for the reference client that is Try Again.
            let sent: ClientAction = action == .submit && failureShown ? .retry : action
            var o = try await inner.perform(sent)
            failureShown = o.outcome == .failure
            if let alert = o.alert { o.alert = ObservedAlert(kind: alert.kind == "noConnection" ? "generic" : alert.kind, message: WebFlowClients.toast) }
            if endsOnSummaryAfterAFailedUpload, o.outcome == .failure, o.cause?.status == 500, sent == .submit || sent == .retry {
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
