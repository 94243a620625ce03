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

/// The input rules of a client profile (`inputs` in `profile.json`) applied to typed values: the one place the
/// explorer's model and scenario authors take input validity and limits from. The rule kinds (digits, an email format,
/// a maximum length) are Swift; their bounds, messages and citations are the profile's.
public enum SeedInputRules {
    /// The default profile's inline message for `field`, empty when it has none.
    public static func message(for field: String, in profile: ClientProfile = .bundledDefault) -> String {
        profile.inputs.first { $0.field == field }?.message ?? ""
    }

    /// The default profile's maximum length of `field`, `nil` when it has none.
    public static func maxLength(of field: String, in profile: ClientProfile = .bundledDefault) -> Int? {
        profile.inputs.first { $0.field == field }?.rule(.maxLength)?.max
    }

    /// What `profile`'s rules say about `value` typed into `field`: the first rule that rejects it, else the first on
    /// which the sources disagree, else valid. A field without rules accepts anything; an empty value is judged by the
    /// `required` rule alone (an optional field's format applies only once something is typed).
    public static func verdict(field: String, value: String, in profile: ClientProfile = .bundledDefault) -> InputVerdict {
        guard let input = profile.inputs.first(where: { $0.field == field }) else { return .valid }
        guard let trim = input.rule(.trim) else { return verdict(of: value, input) }
        // Every platform's trim removes spaces and tabs; whether it removes a line break is the platform's (Swift's
        // `.whitespaces`, which the real iOS app trims with, keeps it): where the two differ, each is a reading.
        let all = value.trimmingCharacters(in: .whitespacesAndNewlines), spaces = value.trimmingCharacters(in: .whitespaces)
        let trimmed = verdict(of: all, input)
        guard spaces != all else { return trimmed }
        let kept = verdict(of: spaces, input)
        if trimmed == kept { return trimmed }
        if trimmed.isValid || kept.isValid || !trimmed.isInvalid || !kept.isInvalid {
            return .either(why: trim.source + " trims the text; whether a line break at its ends is trimmed too is the platform's")
        }
        return trimmed
    }

    /// `input`'s rules applied to `text` as it is judged (already trimmed where the field trims).
    static func verdict(of text: String, _ input: ClientProfile.InputField) -> InputVerdict {
        if text.isEmpty { return input.rule(.required).map { .invalid(rule: $0.source) } ?? .valid }
        var either: InputVerdict?
        for rule in input.rules {
            let v: InputVerdict
            switch rule.kind {
            case .digits: v = digits(text, rule)
            case .format: v = email(text, rule)
            case .maxLength, .trim, .verbatim, .required: v = .valid
            }
            if v.isInvalid { return v }
            if either == nil, v != .valid { either = v }
        }
        return either ?? .valid
    }

    /// A `digits` rule: an optional leading `+`, the rule's separators ignored, letters rejected (by `letters`, the
    /// line that says so, else `source`), `min`…`max` ASCII digits. Other symbols, and digits of other scripts, are
    /// where the sources may disagree (`conflict`): counted by one reading, rejected by the other.
    static func digits(_ text: String, _ rule: ClientProfile.InputRule) -> InputVerdict {
        let range = (rule.min ?? 0)...(rule.max ?? Int.max)
        var rest = Substring(text)
        if rule.leadingPlus, rest.hasPrefix("+") { rest = rest.dropFirst() }
        var asciiDigits = 0
        var otherDigits = 0
        var strict = true
        for c in rest {
            if c.isASCII, c.isNumber { asciiDigits += 1 } else if rule.anyCharacters {
                if c.isNumber { otherDigits += 1 }
            } else if rule.separators.contains(c) { continue } else if c.isLetter {
                return .invalid(rule: rule.letters ?? rule.source)
            } else if c.isNumber { otherDigits += 1; strict = false } else { strict = false }
        }
        if rule.anyCharacters, otherDigits > 0 {
            // A rule that counts digits and ignores the rest leaves open whether a digit of another script (٣, ７) counts
            // (Swift's `isNumber` and a JavaScript `\d` disagree): judged both ways.
            let readings = [range.contains(asciiDigits), range.contains(asciiDigits + otherDigits)]
            if readings.allSatisfy({ $0 }) { return .valid }
            if readings.contains(true) {
                return .either(why: rule.conflict ?? rule.source + " counts digits without saying whether digits of other scripts count")
            }
            return .invalid(rule: rule.source)
        }
        let strictValid = strict && range.contains(asciiDigits)
        let laxValid = range.contains(asciiDigits) || range.contains(asciiDigits + otherDigits)
        if strictValid { return .valid }
        if laxValid, let conflict = rule.conflict { return .either(why: conflict) }
        return .invalid(rule: rule.source)
    }

    /// The default profile's verdict on a typed phone (its `digits` rule).
    public static func phone(_ phone: String) -> InputVerdict { verdict(field: "phone", value: phone) }

    /// The default profile's verdict on a typed email (its `format: email` rule).
    public static func email(_ email: String) -> InputVerdict { verdict(field: "email", value: email) }

    /// A `format: email` rule, RFC 5322's basic local@domain.tld, case-insensitive. A one-letter TLD, non-ASCII text
    /// or a length beyond RFC 5321 §4.5.3.1 and errata 1690 (254 in all, 64 before the @, 63 per label) is outside
    /// "basic" but no rule names it, so it is where the sources may disagree (`conflict`).
    static func email(_ email: String, _ rule: ClientProfile.InputRule) -> InputVerdict {
        let text = email.lowercased()
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let citation = rule.source
        guard parts.count == 2 else { return .invalid(rule: citation) }
        let local = parts[0], domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !local.isEmpty, labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let tld = labels.last else { return .invalid(rule: citation) }
        guard !text.contains(where: { $0.isWhitespace }) else { return .invalid(rule: citation) }
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        let charactersOK = local.allSatisfy { localAllowed.contains($0) } && labels.allSatisfy { $0.allSatisfy { labelAllowed.contains($0) } }
        // Where a dot or hyphen stands (two dots in a row, a dot at the local part's ends, a hyphen at a label's): RFC
        // 5322 and 1035 forbid it, a basic pattern such as the iOS app's `[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}` allows it.
        let placementOK = !local.hasPrefix(".") && !local.hasSuffix(".") && !local.contains("..")
            && labels.allSatisfy { !$0.hasPrefix("-") && !$0.hasSuffix("-") }
        let asciiOK = charactersOK && placementOK
        let tldLetters = tld.allSatisfy { $0.isLetter }
        let withinLengths = text.utf8.count <= 254 && local.utf8.count <= 64 && labels.allSatisfy { $0.utf8.count <= 63 }
        if asciiOK, tldLetters, tld.count >= 2, tld.allSatisfy(\.isASCII), withinLengths { return .valid }
        if text.allSatisfy(\.isASCII), !tldLetters { return .invalid(rule: citation + ": the TLD must be letters") }
        if text.allSatisfy(\.isASCII), !charactersOK { return .invalid(rule: citation) }
        return rule.conflict.map { .either(why: $0) } ?? .invalid(rule: citation)
    }

    /// The values a field with a `maxLength` rule may hold after the user typed `typed` over `previous` (any of them).
    /// At most `max` characters are kept verbatim; beyond, input is rejected (old value kept) or cut at the limit.
    /// "Characters" counts what a person sees; a platform counting UTF-16 units (Android, UIKit `NSString.length`)
    /// may also reject or cut a text of at most `max` characters that is longer in UTF-16.
    public static func afterTyping(_ typed: String, previous: [String], limit: Int?) -> [String] {
        guard let limit else { return [typed] }
        if typed.count <= limit, typed.utf16.count <= limit { return [typed] }
        var accepted: [String] = []
        if typed.count <= limit { accepted.append(typed) } else { accepted.append(String(typed.prefix(limit))) }
        accepted += previous
        var units = ""
        for c in typed {
            guard units.utf16.count + String(c).utf16.count <= limit else { break }
            units.append(c)
        }
        accepted.append(units)
        var seen: Set<String> = []
        return accepted.filter { seen.insert($0).inserted }
    }

    // MARK: the default profile's contact fields, by name (callers that predate profiles)

    /// The default profile's inline message of the phone.
    public static var phoneMessage: String { message(for: "phone") }
    /// The default profile's inline message of the email.
    public static var emailMessage: String { message(for: "email") }
    /// The default profile's maximum length of the reward.
    public static var rewardLimit: Int { maxLength(of: "reward") ?? Int.max }
    /// The default profile's digits a phone holds.
    public static var phoneDigits: ClosedRange<Int> {
        let rule = ClientProfile.bundledDefault.inputs.first { $0.field == "phone" }?.rule(.digits)
        return (rule?.min ?? 0)...(rule?.max ?? Int.max)
    }

    /// The reward's values after typing, by the default profile's limit (see `afterTyping(_:previous:limit:)`).
    public static func rewardAfterTyping(_ typed: String, previous: [String]) -> [String] {
        afterTyping(typed, previous: previous, limit: rewardLimit)
    }
}
