import ScenarioEngine

/// The invariants the seed model checks after every step (issue 21), each with the seed lines it comes from.
public enum ModelRule: String, Sendable, CaseIterable, Comparable, Codable {
    case noSendWhileInvalid = "no-send-while-invalid"
    case validationMessages = "validation-messages"
    case noSendWithoutTap = "no-send-without-tap"
    case bodyCarriesCurrentInputs = "body-carries-current-inputs"
    case inputsSurvive = "inputs-survive"
    case rewardLimit = "reward-limit"
    case analyticsOnlyOnSuccess = "analytics-only-on-success"
    case passwordOpensPhoto = "password-opens-photo"
    case alertFitsCause = "alert-fits-cause"
    case stayOnForm = "stay-on-form"
    case twoStepSubmission = "two-step-submission"
    case detailsPresentation = "details-presentation"
    case detailsLoadError = "details-load-error"
    case listWithPhotos = "list-with-photos"
    case validationOnlyOnContinue = "validation-only-on-continue"
    case analyticsAfterTryAgain = "analytics-after-try-again"

    /// The rule in one sentence, with its seed lines.
    public var statement: String {
        switch self {
        case .noSendWhileInvalid:
            return "nothing is sent while validation fails (seed 001 FR-003, SC-001)"
        case .validationMessages:
            return "Continue shows the seeds' inline message for each invalid field and accepts every valid input (seed 001 FR-004/FR-005, Assumptions \"Phone validation\" and \"Email validation\"; 003 T031/T032)"
        case .noSendWithoutTap:
            return "nothing is sent between a failure and the user's tap, nor while the user types (seed 001 US4 scenario 1, FR-011: Try Again is the user's choice)"
        case .bodyCarriesCurrentInputs:
            return "the create body carries the inputs as they are now, not as they were at an earlier attempt (seed 001 FR-007, Key Entities \"AnnouncementCreatePayload\", FR-006 reward verbatim)"
        case .inputsSurvive:
            return "inputs survive failures and Cancel, exactly as typed (seed 001 US4 scenario 1, FR-011, US3 scenario 1)"
        case .rewardLimit:
            return "the reward keeps at most 120 characters: longer input is rejected or cut, shorter input is kept verbatim (seed 001 FR-006, Edge Cases \"Reward truncation\")"
        case .analyticsOnlyOnSuccess:
            return "analytics are emitted only when both steps succeed (seed 001 FR-003 and US1 scenario 1: \(Self.successEvents) after both)"
        case .passwordOpensPhoto:
            return "the password shown on the summary opens the announcement that holds the photo (seed 001 US1 scenario 1, FR-003, Clarifications: step 2 uploads with step 1's id and password)"
        case .alertFitsCause:
            return "the alert fits its cause (seed 001 FR-011/FR-012, 003 T039/T044; lenient where they conflict)"
        case .stayOnForm:
            return "a failure keeps the user on the form with the alert (seed 001 US4 scenario 1)"
        case .twoStepSubmission:
            return "one tap runs one two-step submission, step 1 then step 2, and Try Again re-runs both (seed 001 FR-003, Clarifications 2025-12-02)"
        case .detailsPresentation:
            return "the details screen presents the stored announcement as seed 002 says: ACTIVE shown as a red MISSING, FOUND blue, CLOSED gray, the date as MMM d, yyyy, the microchip as 000-000-000-000, \"—\" for absent optional fields, only the available contacts, \"Image not available\" without a photo, the reward as-is (seed 002 FR-003 to FR-007, FR-010, Edge Cases)"
        case .detailsLoadError:
            return "a failed details load shows \"Unable to load pet details\" with a retry that works however often it is tapped (seed 002 User Story 1 scenario 3, Edge Cases)"
        case .listWithPhotos:
            return "the list shows the stored announcements that have a photo (petspot-api GET /api/v1/announcements; beyond the seeds, which do not describe the list screen)"
        case .validationOnlyOnContinue:
            return "typing shows no field error: validation runs only when Continue is tapped (seed 001 Clarifications \"Validation timing\", 003 Notes \"Validation timing: Only on Continue tap\")"
        case .analyticsAfterTryAgain:
            return "a submission that succeeds through Try Again emits \(Self.successEvents) once, like a first tap (seed 001 FR-003, FR-012: Try Again re-runs the full submission)"
        }
    }

    /// The default profile's analytics events of a success, as the rules name them.
    static var successEvents: String { ClientProfile.bundledDefault.success.analytics.joined(separator: ", ") }

    public static func < (a: ModelRule, b: ModelRule) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}
