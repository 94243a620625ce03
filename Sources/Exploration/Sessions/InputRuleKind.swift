/// The kinds of rule the seeds state about an input (issue 43). Each kind brings its own equivalence classes and
/// boundaries, the way boundary-value analysis and Hypothesis's strategies derive them from a type: a new rule of a
/// known kind gets every class at once, and a new kind brings its classes with it.
public enum InputRuleKind: Sendable, Equatable {
    /// Free text; `trimmed` when the seeds trim it before use (else it is kept verbatim), at most `limit` in `unit`.
    case text(trimmed: Bool, limit: Int?, unit: LengthUnit)
    /// A phone: digits counted in `digits`, a leading `+`, spaces and dashes free.
    case digitText(digits: ClosedRange<Int>)
    /// A digit string (a microchip), `longest` digits in its usual form.
    case digits(longest: Int)
    /// A coordinate within `-bound...bound`.
    case coordinate(bound: Double)
    /// One of `values`.
    case choice([String])
    /// An address of the form local@domain.tld (the email's format rule).
    case address

    /// How a length is counted.
    public enum LengthUnit: String, Sendable, Equatable {
        /// What a person sees (Swift `Character`s).
        case characters
        /// UTF-16 code units (UIKit `NSString.length`, Android).
        case utf16
    }

    /// The classes and boundaries of this kind, built around `base` (a valid value of the rule): each a name, for
    /// docs/explore.md's table and the reports, and the value.
    public func classes(base: String) -> [InputClass] {
        switch self {
        case .text(let trimmed, let limit, _):
            var c = Self.whitespaceClasses(base: base, inner: true)
            c += [InputClass("whitespace only", " \t "), InputClass("empty", "")]
            if let limit {
                c += [InputClass("at the limit (\(limit))", Self.grown(base, to: limit, trimmed: trimmed)),
                      InputClass("one past the limit (\(limit + 1))", Self.grown(base, to: limit + 1, trimmed: trimmed))]
                if !trimmed {
                    // The same text counted two ways: emoji are one character and two UTF-16 units.
                    c += [InputClass("at the limit in UTF-16 units", String(repeating: "🐾", count: limit / 2)),
                          InputClass("within the limit in characters, past it in UTF-16", String(repeating: "🐾", count: limit / 2 + 1))]
                }
            }
            return c
        case .digitText(let digits):
            func number(_ n: Int) -> String { String((0..<n).map { Character(String(($0 % 9) + 1)) }) }
            return Self.whitespaceClasses(base: base, inner: true) + [
                InputClass("whitespace only", "   "), InputClass("empty", ""),
                InputClass("shortest (\(digits.lowerBound) digits)", number(digits.lowerBound)),
                InputClass("one short (\(digits.lowerBound - 1) digits)", number(digits.lowerBound - 1)),
                InputClass("longest (\(digits.upperBound) digits)", number(digits.upperBound)),
                InputClass("one past (\(digits.upperBound + 1) digits)", number(digits.upperBound + 1)),
                InputClass("leading zeros", "00" + number(digits.lowerBound)),
                InputClass("all zeros", String(repeating: "0", count: digits.lowerBound)),
                InputClass("full-width digits", String(number(digits.lowerBound).unicodeScalars.map { Character(Unicode.Scalar($0.value - 0x30 + 0xFF10) ?? $0) })),
                InputClass("leading +", "+" + number(digits.lowerBound + 2)),
                InputClass("dashes and spaces", "600-700 800"),
            ] + Self.outsideDigitsClasses(base: base)
        case .digits(let longest):
            return [
                InputClass("leading zeros", "000" + String(repeating: "7", count: longest - 3)),
                InputClass("all zeros", String(repeating: "0", count: longest)),
                InputClass("longest (\(longest) digits)", String((0..<longest).map { Character(String(($0 * 7) % 10)) })),
                InputClass("one past (\(longest + 1) digits)", String(repeating: "9", count: longest + 1)),
                InputClass("one digit", "5"),
            ]
        case .coordinate(let bound):
            return [
                InputClass("0", "0"), InputClass("-0", "-0"), InputClass("the upper bound", String(bound)),
                InputClass("the lower bound", String(-bound)), InputClass("negative", String(-bound / 3 - 0.123)),
                InputClass("many decimals", String(bound / 2 + 0.123456789012)),
            ]
        case .choice(let values):
            return values.map { InputClass("the choice \($0)", $0) }
        case .address:
            // Each part of local@domain.tld empty, missing or at its shortest, and the local part's allowed extras.
            guard let at = base.firstIndex(of: "@") else { return [] }
            let local = String(base[..<at]), domain = String(base[base.index(after: at)...])
            let name = domain.split(separator: ".").first.map(String.init) ?? domain
            return [
                InputClass("empty local part", "@" + domain), InputClass("empty domain", local + "@.com"),
                InputClass("no @", local + domain), InputClass("two @", local + "@@" + domain),
                InputClass("no TLD", local + "@" + name), InputClass("shortest TLD (2 letters)", local + "@" + name + ".co"),
                InputClass("one-letter TLD", local + "@" + name + ".c"), InputClass("digits in the TLD", local + "@" + name + ".c0m"),
                InputClass("plus addressing", local + "+tag@" + domain), InputClass("dots in the local part", "first.last@" + domain),
                InputClass("two dots in a row", local + "..x@" + domain), InputClass("upper case", base.uppercased()),
                InputClass("subdomain", local + "@mail." + domain), InputClass("one-letter local part", "a@" + domain),
            ]
        }
    }

    /// Characters a digit text's rule does not allow, each inside `base` so its digit count stays what it was and only
    /// the character decides: a letter (the O typed for a zero; every seed line rejects letters), and symbols a tester
    /// types that the seed lines disagree on (an inner `+`, dots, parentheses: 001 allows only a leading `+`, spaces and
    /// dashes, 003 T032 sanitizes to digits and `+`), so these are judged by each reading.
    static func outsideDigitsClasses(base: String) -> [InputClass] {
        let middle = base.index(base.startIndex, offsetBy: base.count / 2)
        return [
            InputClass("a letter among the digits", String(base[..<middle]) + "O" + String(base[middle...])),
            InputClass("inner +", String(base[..<middle]) + "+" + String(base[middle...])),
            InputClass("dots between digit groups", String(base.map { $0 == " " || $0 == "-" ? "." : $0 })),
            InputClass("parentheses around the first group", "(" + String(base.prefix(3)) + ")" + String(base.dropFirst(3))),
        ]
    }

    /// Whitespace around the base (space, tab, NBSP, newline) and, with `inner`, inside it.
    static func whitespaceClasses(base: String, inner: Bool) -> [InputClass] {
        var c = [
            InputClass("leading space", " " + base), InputClass("trailing space", base + " "),
            InputClass("leading tab", "\t" + base), InputClass("trailing newline", base + "\n"),
            InputClass("NBSP around", "\u{A0}" + base + "\u{A0}"),
        ]
        if inner, base.count > 1 {
            let middle = base.index(base.startIndex, offsetBy: base.count / 2)
            for (name, white) in [("inner space", " "), ("inner tab", "\t"), ("inner NBSP", "\u{A0}"), ("inner newline", "\n")] {
                c.append(InputClass(name, String(base[..<middle]) + white + String(base[middle...])))
            }
        }
        return c
    }

    /// `base` grown to `length` characters: an email through its local part and subdomain labels (the limit is then
    /// the only one met), other text by repeating a letter.
    static func grown(_ base: String, to length: Int, trimmed: Bool) -> String {
        if trimmed, base.contains("@") { return FieldGrammar.aroundLimit(base, length: length, longLocal: false) }
        return base + String(repeating: "a", count: max(0, length - base.count))
    }
}

/// One equivalence class or boundary of an input rule: its name and a value in it.
public struct InputClass: Sendable, Equatable, Hashable {
    /// E.g. "leading tab", "at the limit (120)".
    public let name: String
    /// The value typed or entered.
    public let value: String

    /// A class named `name` holding `value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
