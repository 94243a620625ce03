/// Byte-level answers for three `pattern`s of the bundled contracts, on printable ASCII text only.
///
/// Live traffic validation checks these patterns in every create and every announcement it answers. `LinearPattern` is
/// the definition and answers every other pattern and text; these three stay because their loops keep several states
/// alive at once, where a byte scan is 3–4 times faster (issue 29: 107–123 ns against 357–401 for the email rule,
/// 85 against 365 for the digits rule, 76 against 245 for the error code, release build); for the bundled patterns not
/// listed here the matcher was as fast or faster. On printable ASCII `\s` is the space alone.
/// `FastPathEquivalenceTests` checks each shortcut against `LinearPattern` and ICU on many variants.
enum PatternShortcut {
    /// The match result for `pattern` on `text`, or nil when no shortcut applies.
    static func matches(_ pattern: String, _ text: String) -> Bool? {
        guard let rule = rules[pattern] else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        return rule(bytes)
    }

    static let space = UInt8(ascii: " ")

    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    /// `bytes` without leading and trailing spaces.
    static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard let start = bytes.firstIndex(where: { $0 != space }), let end = bytes.lastIndex(where: { $0 != space }) else { return [] }
        return bytes[start...end]
    }

    /// `[^\s@]+@[^\s@]+\.[^\s@]+` matching the whole of `t`.
    static func isEmailShape(_ t: ArraySlice<UInt8>) -> Bool {
        guard !t.contains(space), let at = t.firstIndex(of: UInt8(ascii: "@")), t.lastIndex(of: UInt8(ascii: "@")) == at,
              at > t.startIndex else { return false }
        let domain = t[(at + 1)...]
        return domain.indices.contains { i in domain[i] == UInt8(ascii: ".") && i > at + 1 && i < t.endIndex - 1 }
    }

    static let rules: [String: @Sendable ([UInt8]) -> Bool] = [
        #"^\s*[0-9]+\s*$"#: { bytes in
            let t = trimmed(bytes)
            return !t.isEmpty && t.allSatisfy(isDigit)
        },
        #"^\s*$|^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$"#: { bytes in bytes.allSatisfy { $0 == space } || isEmailShape(trimmed(bytes)) },
        "^[A-Z][A-Z_]*$": { bytes in
            guard let first = bytes.first, (0x41...0x5A).contains(first) else { return false }
            return bytes.dropFirst().allSatisfy { (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "_") }
        },
    ]
}
