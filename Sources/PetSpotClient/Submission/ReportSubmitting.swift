/// Submits a finished draft; ``AnnouncementSubmissionService`` is the real one, tests may substitute.
public protocol ReportSubmitting: Sendable {
    /// Runs the whole submission; returns only when it fully succeeded.
    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt
}
