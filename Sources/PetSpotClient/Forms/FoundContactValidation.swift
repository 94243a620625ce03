import Foundation

/// The found flow's contact step (069 FR-004, KAN-34 align FR-010 to FR-012, KAN-34 send FR-008): both the phone and the
/// email are required, a phone counts its digits and ignores every other character (KAN-34 Clarifications: "allow `+`,
/// ignore other chars"), and the caregiver's phone, when not empty, follows the phone's rule. The messages are the found
/// flow's own.
public enum FoundContactValidation {
    /// Shown under a phone field that is empty or does not hold 7 to 11 digits (069 FR-004).
    public static let phoneMessage = "Enter a valid phone number"
    /// Shown under an email field that is empty or not local@domain.tld (069 FR-004).
    public static let emailMessage = ContactValidation.emailMessage
    /// True for 7 to 11 ASCII digits, whatever else the text holds (KAN-34 align FR-010a: "7-11 digits after
    /// sanitization").
    public static func isValidPhone(_ phone: String) -> Bool {
        ContactValidation.phoneDigits.contains(phone.unicodeScalars.count { ("0"..."9").contains($0) })
    }

    /// The inline errors Continue shows for these inputs; `[]` means the step is valid.
    public static func problems(phone: String, email: String, caregiverPhone: String) -> [DraftProblem] {
        var problems: [DraftProblem] = []
        if !isValidPhone(phone) { problems.append(DraftProblem(field: "phone", message: phoneMessage)) }
        if !ContactValidation.isValidEmail(email) { problems.append(DraftProblem(field: "email", message: emailMessage)) }
        // "Only when the field is non-empty" (KAN-34 align FR-012): spaces alone are something typed, and hold no digit.
        if !caregiverPhone.isEmpty, !isValidPhone(caregiverPhone) { problems.append(DraftProblem(field: "caregiverPhone", message: phoneMessage)) }
        return problems
    }
}
