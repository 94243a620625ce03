/// Byte-level answers for the few `pattern`s the bundled contracts use, on printable ASCII text only.
///
/// Live traffic validation checks these patterns in every create and every announcement it answers; through ICU they were
/// 9 % of a create's CPU (issue 16). The pattern stays the definition: any other pattern, and any text with a byte
/// outside 0x20–0x7E (where `\s` and `.` are subtler), goes to `LinearPattern`. On printable ASCII `\s` is the space alone.
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
        #"\S"#: { bytes in bytes.contains { $0 != space } },
        #"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$"#: { bytes in
            let t = Array(trimmed(bytes))
            return t.count == 10 && t.enumerated().allSatisfy { i, b in i == 4 || i == 7 ? b == UInt8(ascii: "-") : isDigit(b) }
        },
        #"^\s*[0-9]+\s*$"#: { bytes in
            let t = trimmed(bytes)
            return !t.isEmpty && t.allSatisfy(isDigit)
        },
        #"^\s*$|[0-9]"#: { bytes in bytes.allSatisfy { $0 == space } || bytes.contains(where: isDigit) },
        #"^\s*$|^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$"#: { bytes in bytes.allSatisfy { $0 == space } || isEmailShape(trimmed(bytes)) },
        "^[0-9]{6}$": { bytes in bytes.count == 6 && bytes.allSatisfy(isDigit) },
        "^[A-Za-z0-9]{10}$": { bytes in
            bytes.count == 10 && bytes.allSatisfy { isDigit($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        },
        "^/images/": { bytes in bytes.starts(with: Array("/images/".utf8)) },
        "^[A-Z][A-Z_]*$": { bytes in
            guard let first = bytes.first, (0x41...0x5A).contains(first) else { return false }
            return bytes.dropFirst().allSatisfy { (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "_") }
        },
    ]
}
