import Foundation

/// Step 4's validation with the active mutant's one change (bench/mutants/); `nil` when no validation mutant is on, so
/// ``ContactValidation`` keeps its own rules. Each variant is the reference rule with exactly one thing done differently.
enum MutantValidation {
    /// The phone verdict under the active mutant, or `nil`.
    static func phone(_ phone: String) -> Bool? {
        guard let mutant = ClientMutant.active else { return nil }
        var trim = CharacterSet.whitespacesAndNewlines
        var digits = ContactValidation.phoneDigits
        var separators: Set<Unicode.Scalar> = [" ", "-"]
        var plusAllowed = true
        var ignoresLetters = false
        var sanitizes = false
        switch mutant {
        case .phoneUntrimmed: trim = CharacterSet()
        case .phoneTrimsSpacesOnly: trim = CharacterSet(charactersIn: " ")
        case .phoneMin8Digits: digits = 8...11
        case .phoneMax10Digits: digits = 7...10
        case .phoneMax12Digits: digits = 7...12
        case .phoneRejectsDashes: separators = [" "]
        case .phoneRejectsLeadingPlus: plusAllowed = false
        case .phoneAcceptsLetters: ignoresLetters = true
        // 003 T032: sanitize to digits and "+", then count the digits.
        case .scPhoneSanitized: sanitizes = true
        default: return nil
        }
        var rest = Substring(phone.trimmingCharacters(in: trim))
        if plusAllowed, rest.hasPrefix("+") { rest = rest.dropFirst() }
        // Letters are rejected by every line (001 "reject letters"), and T032 keeps "+" (only a leading one is a phone's):
        // the reading drops the other symbols and counts every digit.
        if sanitizes { return !rest.contains { $0.isLetter || $0 == "+" } && digits.contains(rest.filter(\.isNumber).count) }
        var count = 0
        for scalar in rest.unicodeScalars {
            switch scalar {
            case "0"..."9": count += 1
            case _ where separators.contains(scalar): continue
            case _ where ignoresLetters && CharacterSet.letters.contains(scalar): continue
            default: return false
            }
        }
        return digits.contains(count)
    }

    /// The email verdict under the active mutant, or `nil`.
    static func email(_ email: String) -> Bool? {
        guard let mutant = ClientMutant.active else { return nil }
        var trim = CharacterSet.whitespacesAndNewlines
        var lowercases = true
        var needsDot = true
        var plusAllowed = true
        var innerSpaceAllowed = false
        var tldMinimum = 2
        var maxLength = Int.max
        var emptyLocalAllowed = false
        switch mutant {
        case .emailUntrimmed: trim = CharacterSet()
        case .emailCaseSensitive: lowercases = false
        case .emailAcceptsNoDot: needsDot = false
        case .emailRejectsPlus: plusAllowed = false
        case .emailAcceptsInnerSpace: innerSpaceAllowed = true
        case .emailTLDMin3: tldMinimum = 3
        case .emailMax253: maxLength = 253
        case .emailAcceptsEmptyLocal: emptyLocalAllowed = true
        case .scEmailOneLetterTLD: tldMinimum = 1
        case .scEmailRejectsOver254: maxLength = 254
        default: return nil
        }
        var text = email.trimmingCharacters(in: trim)
        if lowercases { text = text.lowercased() }
        if innerSpaceAllowed { text.removeAll { $0 == " " } }
        guard text.count <= maxLength else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        var localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*/=?^_`{|}~-")
        if plusAllowed { localAllowed.insert("+") }
        guard emptyLocalAllowed || !local.isEmpty, local.allSatisfy({ localAllowed.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= (needsDot ? 2 : 1), let tld = labels.last else { return false }
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in labels {
            guard !label.isEmpty, label.allSatisfy({ labelAllowed.contains($0) }),
                  !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
        }
        if !needsDot, labels.count == 1 { return true }
        return tld.count >= tldMinimum && tld.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// Whether typed reward text fits the field under the active mutant, or `nil` for the reference rule.
    static func rewardFits(_ text: String) -> Bool? {
        switch ClientMutant.active {
        case .rewardLimit119: text.count <= 119
        case .rewardLimit121: text.count <= 121
        case .rewardCountsUTF8Bytes: text.utf8.count <= ContactValidation.rewardLimit
        case .scRewardCountsUTF16: text.utf16.count <= ContactValidation.rewardLimit
        default: nil
        }
    }

    /// Reward text as the field takes it under the active mutant: the reference keeps it verbatim.
    static func typedReward(_ text: String) -> String {
        switch ClientMutant.active {
        case .rewardTrimmedOnEntry: text.trimmingCharacters(in: .whitespacesAndNewlines)
        case .rewardDropsInnerNewline: text.filter { $0 != "\n" && $0 != "\t" }
        default: text
        }
    }
}
