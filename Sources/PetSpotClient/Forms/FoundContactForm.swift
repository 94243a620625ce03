/// The found flow's contact step without the view (069 FR-004, FR-008, FR-010; KAN-34 align FR-010 to FR-012): the
/// finder's phone and email (both required), the caregiver's phone and the current address (optional), validation on
/// Continue, the same two-step submission as the missing flow with the status `FOUND`, the same failure alerts with
/// Try Again and Cancel, and a success that closes the flow: a finder gets no summary and no password.
@MainActor
public final class FoundContactForm {
    /// The finder's phone as typed.
    public var phone: String
    /// The finder's email as typed.
    public var email: String
    /// The caregiver's phone, when someone else looks after the pet; checked only when not empty.
    public var caregiverPhone = ""
    /// Where the pet is now; free text, not sent (the backend has no field for it, KAN-34 send FR-005).
    public var currentAddress = ""
    /// The inline errors after the last Continue, by field (`phone`, `email`, `caregiverPhone`).
    public private(set) var errors: [String: String] = [:]
    /// True while the two-step submission runs.
    public private(set) var isSubmitting = false
    /// The alert shown after a failed submission, until Try Again or Cancel.
    public private(set) var alert: AlertKind?
    /// The error behind the current alert.
    public private(set) var lastFailure: SubmissionError?
    /// Set once a submission succeeded: the flow is closed.
    public private(set) var isClosed = false

    private let earlierSteps: ReportDraft
    private let submitter: any ReportSubmitting

    /// Creates the step over the draft of the photo and pet-details steps; the contacts start from the draft's.
    public init(draft: ReportDraft, submitter: any ReportSubmitting) {
        earlierSteps = draft
        phone = draft.contact.phone
        email = draft.contact.email
        self.submitter = submitter
    }

    /// The report as it would be sent: the found status, the contacts, no reward (the found flow has none).
    public var draft: ReportDraft {
        var draft = earlierSteps
        draft.status = "FOUND"
        draft.contact = ContactDetails(phone: phone, email: email, reward: "")
        return draft
    }

    /// Continue: validates, then runs both steps; a failure shows the mapped alert and keeps every input.
    @discardableResult
    public func continueTapped() async -> SubmitOutcome {
        guard !isSubmitting, !isClosed else { return .ignored }
        let problems = FoundContactValidation.problems(phone: phone, email: email, caregiverPhone: caregiverPhone)
        errors = Dictionary(problems.map { ($0.field, $0.message) }) { first, _ in first }
        guard problems.isEmpty else { return .invalid(problems) }

        alert = nil
        lastFailure = nil
        isSubmitting = true
        defer { isSubmitting = false }
        do {
            let receipt = try await submitter.submit(draft)
            isClosed = true
            return .sent(receipt)
        } catch {
            let kind = ErrorMapping.alert(for: error)
            lastFailure = error
            alert = kind
            return .failed(kind)
        }
    }

    /// The alert's "Try Again": dismisses it and sends the whole report again (069 FR-010, as the missing flow).
    @discardableResult
    public func tryAgainTapped() async -> SubmitOutcome {
        alert = nil
        return await continueTapped()
    }

    /// The alert's "Cancel": dismisses it; inputs stay as they were.
    public func cancelTapped() {
        alert = nil
    }
}
