/// What the last step of a report flow offers the view, whichever flow it is: Continue, and the failure alert with
/// Try Again and Cancel.
@MainActor
public protocol ReportForm: AnyObject, Sendable {
    /// The alert shown after a failed submission, until Try Again or Cancel.
    var alert: AlertKind? { get }
    /// Continue: validates, then runs both steps.
    func continueTapped() async -> SubmitOutcome
    /// The alert's "Try Again".
    func tryAgainTapped() async -> SubmitOutcome
    /// The alert's "Cancel".
    func cancelTapped()
}

extension ContactDetailsForm: ReportForm {}
extension FoundContactForm: ReportForm {}
