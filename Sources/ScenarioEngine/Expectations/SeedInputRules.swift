import Foundation

/// What the seeds say about one typed input: accepted, rejected, or either where seed lines disagree.
public enum InputVerdict: Sendable, Equatable {
    /// Every reading of the seeds accepts it.
    case valid
    /// Every reading rejects it; `rule` names the seed line.
    case invalid(rule: String)
    /// The seeds disagree; `why` names the lines on each side.
    case either(why: String)

    /// Whether every reading accepts it.
    public var isValid: Bool { self == .valid }
    /// Whether every reading rejects it.
    public var isInvalid: Bool { if case .invalid = self { return true } else { return false } }
}

/// The seeds' step-4 input rules, read from the seeds (not from any client's code): the one place the explorer's model
/// and scenario authors take input validity and the reward limit from.
public enum SeedInputRules {
    /// Seed 001 FR-004: the phone's inline error.
    public static let phoneMessage = "Enter at least 7 digits"
    /// Seed 001 FR-005: the email's inline error.
    public static let emailMessage = "Enter a valid email address"
    /// Seed 001 FR-006 / Clarifications: the reward's maxLength.
    public static let rewardLimit = 120
    /// Seed 001 FR-003/FR-004: how many digits a phone holds.
    public static let phoneDigits = 7...11

    /// 001 FR-004 and Assumptions "Phone validation": a leading `+`, digits, spaces and dashes ignored, letters and symbols
    /// rejected, 7–11 digits. 003 T032 "sanitize phone to digits and +, count digits" is laxer about symbols and other
    /// whitespace, so those are `either`; letters are rejected by every line (001 "reject letters").
    public static func phone(_ phone: String) -> InputVerdict {
        let text = phone.trimmingCharacters(in: .whitespacesAndNewlines)
        var rest = Substring(text)
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        var asciiDigits = 0
        var otherDigits = 0
        var strict = true
        for c in rest {
            if c.isASCII, c.isNumber { asciiDigits += 1 } else if c == " " || c == "-" { continue } else if c.isLetter {
                return .invalid(rule: "seed 001 Assumptions \"Phone validation\" (reject letters)")
            } else if c.isNumber { otherDigits += 1; strict = false } else { strict = false }
        }
        let strictValid = strict && phoneDigits.contains(asciiDigits)
        let laxValid = phoneDigits.contains(asciiDigits) || phoneDigits.contains(asciiDigits + otherDigits)
        if strictValid { return .valid }
        if laxValid {
            return .either(why: "seed 001 Assumptions \"Phone validation\" rejects symbols other than a leading + (and counts only digits), 003 T032 sanitizes the phone to digits and + before counting")
        }
        return .invalid(rule: "seed 001 FR-004 (7-11 digits, a leading + allowed, letters and symbols rejected)")
    }

    /// 001 FR-005 and Assumptions "Email validation": RFC 5322 basic local@domain.tld, case-insensitive, trimmed.
    /// A one-letter TLD or non-ASCII text is outside "basic" but the seeds name no rule for it, so either reading passes.
    public static func email(_ email: String) -> InputVerdict {
        let text = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let rule = "seed 001 FR-005 and Assumptions \"Email validation\" (local@domain.tld, trimmed, case-insensitive)"
        guard parts.count == 2 else { return .invalid(rule: rule) }
        let local = parts[0], domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !local.isEmpty, labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let tld = labels.last else { return .invalid(rule: rule) }
        guard !text.contains(where: { $0.isWhitespace }) else { return .invalid(rule: rule) }
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        let asciiOK = local.allSatisfy { localAllowed.contains($0) } && !local.hasPrefix(".") && !local.hasSuffix(".") && !local.contains("..")
            && labels.allSatisfy { $0.allSatisfy { labelAllowed.contains($0) } && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
        let tldLetters = tld.allSatisfy { $0.isLetter }
        if asciiOK, tldLetters, tld.count >= 2, tld.allSatisfy(\.isASCII), text.utf8.count <= 254 { return .valid }
        if text.allSatisfy(\.isASCII), !tldLetters { return .invalid(rule: rule + ": the TLD must be letters") }
        if text.allSatisfy(\.isASCII), !asciiOK { return .invalid(rule: rule) }
        return .either(why: "seed 001 says \"RFC 5322 basic local@domain.tld\" without naming one-letter TLDs, non-ASCII text or the 254-character limit; a client may accept or reject them")
    }

    /// 001 FR-006 and Edge Cases "Reward truncation": the values the reward input may hold after the user typed `typed`
    /// over `previous` (any of them). At most 120 characters are kept verbatim; beyond, input is rejected (old value kept)
    /// or cut at the limit. "Characters" counts what a person sees; a platform counting UTF-16 units (Android, UIKit
    /// `NSString.length`) may also reject or cut a text of at most 120 characters that is longer in UTF-16.
    public static func rewardAfterTyping(_ typed: String, previous: [String]) -> [String] {
        if typed.count <= rewardLimit, typed.utf16.count <= rewardLimit { return [typed] }
        var accepted: [String] = []
        if typed.count <= rewardLimit { accepted.append(typed) } else { accepted.append(String(typed.prefix(rewardLimit))) }
        accepted += previous
        var units = ""
        for c in typed {
            guard units.utf16.count + String(c).utf16.count <= rewardLimit else { break }
            units.append(c)
        }
        accepted.append(units)
        var seen: Set<String> = []
        return accepted.filter { seen.insert($0).inserted }
    }
}
