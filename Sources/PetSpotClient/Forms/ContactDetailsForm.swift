/// Step 4 without the view: phone, email and reward inputs, validation on Continue, the
/// two-step submission, the failure alert with Try Again / Cancel, and the success hand-off.
@MainActor
public final class ContactDetailsForm {
    /// The phone as typed; formatting is kept.
    public var phone: String
    /// The email as typed.
    public var email: String
    /// The optional reward; input that would make it longer than 120 characters is rejected.
    public var reward: String {
        didSet {
            if !Self.rewardFits(reward) { reward = oldValue }
        }
    }
    /// The phone's inline error after the last Continue, if any.
    public private(set) var phoneError: String?
    /// The email's inline error after the last Continue, if any.
    public private(set) var emailError: String?
    /// True while the two-step submission runs (the view disables Continue and Back).
    public private(set) var isSubmitting = false
    /// The alert shown after a failed submission, until Try Again or Cancel.
    public private(set) var alert: AlertKind?
    /// The error behind the current alert, for logs and diagnostics.
    public private(set) var lastFailure: SubmissionError?
    /// Called with the management password once per fully successful submission.
    public var onReportSent: (@MainActor (String) -> Void)?

    private var stepsOneToThree: ReportDraft
    private let submitter: any ReportSubmitting
    private let analytics: (any AnalyticsSink)?

    /// Creates the form over a draft from steps 1–3; inputs start from the draft's contact (back navigation).
    public init(draft: ReportDraft, submitter: any ReportSubmitting, analytics: (any AnalyticsSink)? = nil, onReportSent: (@MainActor (String) -> Void)? = nil) {
        stepsOneToThree = draft
        phone = draft.contact.phone
        email = draft.contact.email
        // A stored reward that is already too long is cut, since the field could never hold it.
        reward = String(draft.contact.reward.prefix(ContactValidation.rewardLimit))
        self.submitter = submitter
        self.analytics = analytics
        self.onReportSent = onReportSent
    }

    /// The whole draft with the current inputs, as it would be submitted.
    public var draft: ReportDraft {
        var draft = stepsOneToThree
        draft.contact = ContactDetails(phone: phone, email: email, reward: reward)
        return draft
    }

    /// Replaces the reward only if the new text fits; returns whether it was accepted.
    @discardableResult
    public func enterReward(_ text: String) -> Bool {
        let text = MutantValidation.typedReward(text)
        guard Self.rewardFits(text) else {
            guard ClientMutant.scRewardCutAtLimit.isOn else { return false }
            reward = String(text.prefix(ContactValidation.rewardLimit))
            return true
        }
        reward = text
        return true
    }

    /// Whether `text` fits the reward field: at most 120 characters (a benchmark mutant may count otherwise).
    static func rewardFits(_ text: String) -> Bool {
        MutantValidation.rewardFits(text) ?? (text.count <= ContactValidation.rewardLimit)
    }

    /// Continue: validates, then runs both steps; on failure shows the mapped alert and keeps every input.
    @discardableResult
    public func continueTapped() async -> SubmitOutcome {
        guard !isSubmitting else { return .ignored }
        let problems = ContactValidation.problems(phone: phone, email: email)
        phoneError = problems.first { $0.field == "phone" }?.message
        emailError = problems.first { $0.field == "email" }?.message
        guard problems.isEmpty else { return .invalid(problems) }

        alert = nil
        lastFailure = nil
        isSubmitting = true
        let submission = draft
        let result: Result<SubmissionReceipt, SubmissionError>
        do {
            result = .success(try await submitter.submit(submission))
        } catch {
            result = .failure(error)
        }
        isSubmitting = false

        switch result {
        case .success(let receipt):
            analytics?.record(.step4Completed)
            onReportSent?(receipt.managementPassword)
            return .sent(receipt)
        case .failure(let error):
            let kind = ErrorMapping.alert(for: error)
            lastFailure = error
            alert = kind
            return .failed(kind)
        }
    }

    /// The alert's "Try Again": dismisses it and re-runs the whole flow from step 1.
    @discardableResult
    public func tryAgainTapped() async -> SubmitOutcome {
        alert = nil
        return await continueTapped()
    }

    /// The alert's "Cancel": dismisses it; inputs stay exactly as they were.
    public func cancelTapped() {
        alert = nil
    }
}
