import Foundation

/// The found flow's contact step (069 FR-004, KAN-34 align FR-010 to FR-012, KAN-34 send FR-008): both the phone and the
/// email are required, a phone may also be written with parentheses, and the caregiver's phone, when given, follows the
/// phone's rule. The messages are the found flow's own.
public enum FoundContactValidation {
    /// Shown under a phone field that is empty or does not hold 7 to 11 digits (069 FR-004).
    public static let phoneMessage = "Enter a valid phone number"
    /// Shown under an email field that is empty or not local@domain.tld (069 FR-004).
    public static let emailMessage = ContactValidation.emailMessage
    /// What may stand between a phone's digits (KAN-34 align FR-010a and its Clarifications).
    public static let phoneSeparators: Set<Unicode.Scalar> = [" ", "-", "(", ")"]

    /// True for 7 to 11 digits with an optional leading `+`, spaces, dashes and parentheses ignored.
    public static func isValidPhone(_ phone: String) -> Bool {
        ContactValidation.phoneDigitCount(phone, separators: phoneSeparators).map(ContactValidation.phoneDigits.contains) ?? false
    }

    /// The inline errors Continue shows for these inputs; `[]` means the step is valid.
    public static func problems(phone: String, email: String, caregiverPhone: String) -> [DraftProblem] {
        var problems: [DraftProblem] = []
        if !isValidPhone(phone) { problems.append(DraftProblem(field: "phone", message: phoneMessage)) }
        if !ContactValidation.isValidEmail(email) { problems.append(DraftProblem(field: "email", message: emailMessage)) }
        let caregiver = caregiverPhone.trimmingCharacters(in: .whitespacesAndNewlines)
        if !caregiver.isEmpty, !isValidPhone(caregiver) { problems.append(DraftProblem(field: "caregiverPhone", message: phoneMessage)) }
        return problems
    }
}
