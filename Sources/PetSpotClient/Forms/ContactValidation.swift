/// Step 4's input rules and their exact messages, shared by the form and anyone checking inputs.
public enum ContactValidation {
    /// Shown under the phone field when it does not hold 7 to 11 digits.
    public static let phoneMessage = "Enter at least 7 digits"
    /// Shown under the email field when it is not local@domain.tld.
    public static let emailMessage = "Enter a valid email address"
    /// The reward field's hard limit, enforced at entry.
    public static let rewardLimit = 120
    /// How many digits a phone number may have.
    public static let phoneDigits = 7...11

    /// True for 7 to 11 digits with an optional leading `+`; spaces and dashes are ignored, anything else rejects.
    public static func isValidPhone(_ phone: String) -> Bool {
        if let verdict = MutantValidation.phone(phone) { return verdict }
        return phoneDigitCount(phone, separators: [" ", "-"]).map(phoneDigits.contains) ?? false
    }

    /// How many ASCII digits `phone` holds once trimmed and a leading `+` dropped; `nil` when anything but a digit or one
    /// of `separators` is left. The missing flow separates with spaces and dashes, the found flow with parentheses too.
    public static func phoneDigitCount(_ phone: String, separators: Set<Unicode.Scalar>) -> Int? {
        var rest = Substring(phone.trimmingCharacters(in: .whitespacesAndNewlines))
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        var digits = 0
        for scalar in rest.unicodeScalars {
            switch scalar {
            case "0"..."9": digits += 1
            case _ where separators.contains(scalar): continue
            default: return nil
            }
        }
        return digits
    }

    /// True for a trimmed, case-insensitive local@domain.tld (letters-only TLD of 2+, no spaces).
    public static func isValidEmail(_ email: String) -> Bool {
        if let verdict = MutantValidation.email(email) { return verdict }
        let text = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        guard !local.isEmpty, local.allSatisfy({ localAllowed.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last else { return false }
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in labels {
            guard !label.isEmpty, label.allSatisfy({ labelAllowed.contains($0) }),
                  !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
        }
        return tld.count >= 2 && tld.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The inline errors Continue shows for these inputs; `[]` means both are valid.
    public static func problems(phone: String, email: String) -> [DraftProblem] {
        var problems: [DraftProblem] = []
        if !isValidPhone(phone) { problems.append(DraftProblem(field: "phone", message: phoneMessage)) }
        if ClientMutant.scValidationReturnsEarly.isOn, !problems.isEmpty { return problems }
        if !isValidEmail(email) { problems.append(DraftProblem(field: "email", message: emailMessage)) }
        return problems
    }
}
