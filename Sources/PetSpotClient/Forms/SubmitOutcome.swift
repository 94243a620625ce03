/// What one tap on Continue or Try Again led to.
public enum SubmitOutcome: Sendable, Equatable {
    /// Validation failed; inline errors are shown and no request was made.
    case invalid([DraftProblem])
    /// Both steps succeeded; `onReportSent` was called with the password.
    case sent(SubmissionReceipt)
    /// The submission failed and this alert is shown.
    case failed(AlertKind)
    /// A submission was already running, so the tap did nothing.
    case ignored
}
