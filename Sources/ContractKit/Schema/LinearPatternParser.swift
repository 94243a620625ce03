/// Parses the ECMA-262 pattern subset JSON Schema `pattern`s use, read as with the `u` flag (by Unicode scalar), into a
/// `LinearPatternNode`. Constructs that need backtracking are refused with their position rather than approximated.
struct LinearPatternParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// Open groups; bounded so that a pattern of thousands of `(` cannot exhaust the stack.
    private var depth = 0
    static let maximumDepth = 100

    private init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// The tree of `pattern`, or why it cannot be matched in linear time.
    static func parse(_ pattern: String) throws(LinearPatternError) -> LinearPatternNode {
        var parser = LinearPatternParser(pattern)
        let node = try parser.parseChoice()
        if parser.index < parser.scalars.count {
            // Only an unmatched `)` stops parseChoice before the end.
            throw LinearPatternError(.syntax, "a ) closes a group that was never opened", offset: parser.index)
        }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ ahead: Int) -> Unicode.Scalar? { index + ahead < scalars.count ? scalars[index + ahead] : nil }

    private mutating func parseChoice() throws(LinearPatternError) -> LinearPatternNode {
        var options = [try parseSequence()]
        while peek == "|" {
            index += 1
            options.append(try parseSequence())
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private mutating func parseSequence() throws(LinearPatternError) -> LinearPatternNode {
        var items: [LinearPatternNode] = []
        while let c = peek, c != "|", c != ")" {
            let start = index
            let atom = try parseAtom()
            items.append(try parseQuantifier(atom, atomStart: start))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseAtom() throws(LinearPatternError) -> LinearPatternNode {
        let start = index
        let c = scalars[index]
        index += 1
        switch c {
        case "^": return .assertion(.inputStart)
        case "$": return .assertion(.inputEnd)
        case ".": return .scalars(.dot)
        case "(": return try parseGroup(start: start)
        case "[": return .scalars(try parseClass(start: start))
        case "\\": return try parseAtomEscape(start: start)
        case "*", "+", "?":
            throw LinearPatternError(.syntax, "the quantifier \(c) has nothing to repeat", offset: start)
        case "{":
            index = start
            if (try? parseCount()) != nil {
                throw LinearPatternError(.syntax, "the quantifier \(String(String.UnicodeScalarView(scalars[start..<index]))) has nothing to repeat", offset: start)
            }
            throw LinearPatternError(.syntax, "a { that does not start a count such as {2,5}; write \\{ for the character itself", offset: start)
        default:
            // A lone `]` or `}` is the character itself, as browsers read it.
            return .scalars(ScalarSet(scalar: c.value))
        }
    }

    private mutating func parseQuantifier(_ atom: LinearPatternNode, atomStart: Int) throws(LinearPatternError) -> LinearPatternNode {
        guard let c = peek else { return atom }
        let start = index
        var bounds: (min: Int, max: Int?)
        switch c {
        case "*": bounds = (0, nil); index += 1
        case "+": bounds = (1, nil); index += 1
        case "?": bounds = (0, 1); index += 1
        case "{":
            guard let count = try parseCount() else {
                throw LinearPatternError(.syntax, "a { that does not start a count such as {2,5}; write \\{ for the character itself", offset: start)
            }
            bounds = count
        default:
            return atom
        }
        if case .assertion = atom {
            throw LinearPatternError(.syntax, "an anchor or word boundary cannot be repeated", offset: start)
        }
        if peek == "?" { index += 1 }  // lazy: the same strings match
        if let next = peek, next == "*" || next == "+" || next == "?" || (next == "{" && (try? lookaheadCount()) != nil) {
            throw LinearPatternError(.syntax, "the quantifier \(next) has nothing to repeat (a quantifier follows another)", offset: index)
        }
        let node = LinearPatternNode.repetition(atom, min: bounds.min, max: bounds.max)
        if node.programSize > LinearPatternCompiler.maximumSize {
            throw LinearPatternError(.tooLarge,
                "this repetition expands to more than \(LinearPatternCompiler.maximumSize) steps; lower its counts or repeat a smaller group",
                offset: start)
        }
        return node
    }

    private func lookaheadCount() throws(LinearPatternError) -> (min: Int, max: Int?)? {
        var copy = self
        return try copy.parseCount()
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position, consumed; nil (nothing consumed) when the text is not a count.
    private mutating func parseCount() throws(LinearPatternError) -> (min: Int, max: Int?)? {
        let start = index
        guard peek == "{" else { return nil }
        index += 1
        guard let low = parseNumber() else { index = start; return nil }
        var high: Int? = low
        if peek == "," {
            index += 1
            high = parseNumber()
        }
        guard peek == "}" else { index = start; return nil }
        index += 1
        if let high, high < low {
            throw LinearPatternError(.syntax, "the count {\(low),\(high)} has its numbers out of order", offset: start)
        }
        return (low, high)
    }

    private mutating func parseNumber() -> Int? {
        var value: Int?
        while let c = peek, ("0"..."9").contains(c) {
            // Saturate: any count this large is refused as too large afterwards.
            value = min((value ?? 0) * 10 + Int(c.value - 0x30), 1_000_000_000)
            index += 1
        }
        return value
    }

    private mutating func parseGroup(start: Int) throws(LinearPatternError) -> LinearPatternNode {
        if peek == "?" {
            switch (peek(1), peek(2)) {
            case (":"?, _):
                index += 2
            case ("="?, _), ("!"?, _):
                throw LinearPatternError(.notLinear, "a lookahead (?\(peek(1)!)...) needs a backtracking matcher, which SpotCheck does not use", offset: start)
            case ("<"?, "="?), ("<"?, "!"?):
                throw LinearPatternError(.notLinear, "a lookbehind (?<\(peek(2)!)...) needs a backtracking matcher, which SpotCheck does not use", offset: start)
            case ("<"?, _):
                index += 2
                let nameStart = index
                while let c = peek, c != ">" {
                    guard c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "$" else {
                        throw LinearPatternError(.syntax, "a group name may hold only letters, digits, _ and $", offset: index)
                    }
                    index += 1
                }
                guard peek == ">", index > nameStart else {
                    throw LinearPatternError(.syntax, "a named group needs a name and a closing >, such as (?<year>...)", offset: start)
                }
                index += 1
            default:
                throw LinearPatternError(.syntax, "(? must be followed by : (a group that does not capture) or <name>", offset: start)
            }
        }
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw LinearPatternError(.tooLarge, "groups are nested more than \(Self.maximumDepth) deep", offset: start)
        }
        let inner = try parseChoice()
        depth -= 1
        guard peek == ")" else {
            throw LinearPatternError(.syntax, "the group opened here is never closed with )", offset: start)
        }
        index += 1
        return inner
    }

    private mutating func parseAtomEscape(start: Int) throws(LinearPatternError) -> LinearPatternNode {
        guard let c = peek else { throw LinearPatternError(.syntax, "the pattern ends with a lone backslash", offset: start) }
        switch c {
        case "b": index += 1; return .assertion(.wordBoundary)
        case "B": index += 1; return .assertion(.notWordBoundary)
        case "1"..."9":
            var end = index
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<end]))
            throw LinearPatternError(.notLinear, "a backreference (\(text)) needs a backtracking matcher, which SpotCheck does not use", offset: start)
        case "k" where peek(1) == "<":
            throw LinearPatternError(.notLinear, "a named backreference (\\k<...>) needs a backtracking matcher, which SpotCheck does not use", offset: start)
        default:
            return .scalars(try parseCharacterEscape(start: start, inClass: false))
        }
    }

    /// The escape after a backslash (already consumed at `start`) that stands for characters: `\d`, `\n`, `\u{1F600}`, `\.`.
    private mutating func parseCharacterEscape(start: Int, inClass: Bool) throws(LinearPatternError) -> ScalarSet {
        guard let c = peek else { throw LinearPatternError(.syntax, "the pattern ends with a lone backslash", offset: start) }
        index += 1
        switch c {
        case "d": return .digit
        case "D": return ScalarSet.digit.complement
        case "w": return .word
        case "W": return ScalarSet.word.complement
        case "s": return .space
        case "S": return ScalarSet.space.complement
        case "t": return ScalarSet(scalar: 0x09)
        case "n": return ScalarSet(scalar: 0x0A)
        case "v": return ScalarSet(scalar: 0x0B)
        case "f": return ScalarSet(scalar: 0x0C)
        case "r": return ScalarSet(scalar: 0x0D)
        case "b" where inClass: return ScalarSet(scalar: 0x08)
        case "0" where !(peek.map { ("0"..."9").contains($0) } ?? false): return ScalarSet(scalar: 0)
        case "c":
            guard let letter = peek, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) else {
                throw LinearPatternError(.syntax, "\\c must be followed by a letter, such as \\cJ", offset: start)
            }
            index += 1
            return ScalarSet(scalar: letter.value % 32)
        case "x":
            guard let value = parseHex(digits: 2) else {
                throw LinearPatternError(.syntax, "\\x must be followed by two hexadecimal digits, such as \\x41", offset: start)
            }
            return ScalarSet(scalar: value)
        case "u":
            return ScalarSet(scalar: try parseUnicodeEscape(start: start))
        case "p", "P":
            throw LinearPatternError(.unsupported, "Unicode property escapes (\\\(c){...}) are not supported; list the characters in a class such as [a-zA-Z\\u00C0-\\u024F]", offset: start)
        default:
            if c.isASCII, c.properties.isAlphabetic || ("0"..."9").contains(c) {
                throw LinearPatternError(.syntax, "\\\(c) is not an escape JSON Schema patterns know", offset: start)
            }
            // Any other character escaped stands for itself (`\.`, `\-`, `\/`, `\@`).
            return ScalarSet(scalar: c.value)
        }
    }

    private mutating func parseHex(digits: Int) -> UInt32? {
        guard index + digits <= scalars.count else { return nil }
        var value: UInt32 = 0
        for c in scalars[index..<index + digits] {
            guard let digit = Self.hexValue(c) else { return nil }
            value = value * 16 + digit
        }
        index += digits
        return value
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }

    /// `\uHHHH` (two of them for a surrogate pair) or `\u{H...}`, after the `u`.
    private mutating func parseUnicodeEscape(start: Int) throws(LinearPatternError) -> UInt32 {
        if peek == "{" {
            index += 1
            var value: UInt32 = 0
            var count = 0
            while let c = peek, let digit = Self.hexValue(c) {
                value = min(value * 16 + digit, 0x110000)
                count += 1
                index += 1
            }
            guard count > 0, peek == "}", value <= ScalarSet.maximumScalar, !(0xD800...0xDFFF).contains(value) else {
                throw LinearPatternError(.syntax, "\\u{...} must hold the hexadecimal value of a Unicode scalar, such as \\u{1F600}", offset: start)
            }
            index += 1
            return value
        }
        guard let value = parseHex(digits: 4) else {
            throw LinearPatternError(.syntax, "\\u must be followed by four hexadecimal digits, such as \\u00E9", offset: start)
        }
        if (0xD800...0xDBFF).contains(value), peek == "\\", peek(1) == "u" {
            let saved = index
            index += 2
            if let low = parseHex(digits: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
            }
            index = saved
        }
        if (0xD800...0xDFFF).contains(value) {
            throw LinearPatternError(.syntax, "a lone surrogate \\u\(String(value, radix: 16, uppercase: true)) never matches text; write the whole character or \\u{...}", offset: start)
        }
        return value
    }

    /// A class after its `[`: `[a-z_]`, `[^\s@]`.
    private mutating func parseClass(start: Int) throws(LinearPatternError) -> ScalarSet {
        var negated = false
        if peek == "^" { negated = true; index += 1 }
        var set = ScalarSet.empty
        while true {
            guard let c = peek else { throw LinearPatternError(.syntax, "the class opened here is never closed with ]", offset: start) }
            if c == "]" { index += 1; break }
            let itemStart = index
            let low = try parseClassAtom()
            if peek == "-", let after = peek(1), after != "]" {
                index += 1
                let highStart = index
                let high = try parseClassAtom()
                guard let from = low.singleScalar, let to = high.singleScalar else {
                    throw LinearPatternError(.syntax, "a range in a class needs a single character at each end; write \\- for a dash", offset: itemStart)
                }
                guard from <= to else {
                    throw LinearPatternError(.syntax, "the range ends before it starts", offset: highStart)
                }
                set = set.union(ScalarSet([from...to]))
            } else {
                set = set.union(low)
            }
        }
        return negated ? set.complement : set
    }

    private mutating func parseClassAtom() throws(LinearPatternError) -> ScalarSet {
        let start = index
        let c = scalars[index]
        index += 1
        guard c == "\\" else { return ScalarSet(scalar: c.value) }
        if let next = peek, ("1"..."9").contains(next) {
            throw LinearPatternError(.syntax, "\\\(next) inside a class is neither a character nor a backreference", offset: start)
        }
        if peek == "-" { index += 1; return ScalarSet(scalar: 0x2D) }
        return try parseCharacterEscape(start: start, inClass: true)
    }
}
