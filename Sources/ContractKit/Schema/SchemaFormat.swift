import Foundation

/// The `format` values the validator asserts; any other format is a lint problem.
enum SchemaFormat: String, CaseIterable {
    case uuid
    case email
    case date
    case dateTime = "date-time"
    /// An absolute URI (RFC 3986: a scheme, then only URI characters, `%` followed by two hex digits).
    case uri
    /// A URI or a relative reference (`/images/a.png`): URI characters only.
    case uriReference = "uri-reference"
    /// A dotted quad, each part 0–255 without a leading zero (RFC 2673 as JSON Schema reads it).
    case ipv4
    /// An IPv6 address (RFC 4291): eight groups of 1–4 hex digits, one `::` for a run of zeros, an IPv4 tail allowed.
    case ipv6

    /// Whether `text` is a valid instance of this format.
    func accepts(_ text: String) -> Bool {
        switch self {
        case .uuid:
            if let plain = Self.plainASCII(text) { return Self.isUUID(plain) }
            return RegexCache.shared.matches(
                "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$", text) == true
        case .email:
            return RegexCache.shared.matches(#"^[^\s@]+@[^\s@]+\.[^\s@]+$"#, text) == true
        case .date:
            return CalendarDate.isValid(text)
        case .dateTime:
            let shaped = Self.plainASCII(text).map(Self.hasDateTimeShape) ?? (RegexCache.shared.matches(
                #"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"#,
                text) == true)
            guard shaped else { return false }
            let chars = Array(text)
            guard CalendarDate.isValid(String(chars[0..<10])),
                let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])),
                let second = Int(String(chars[17..<19]))
            else { return false }
            return hour < 24 && minute < 60 && second <= 60
        case .uri:
            return Self.isURI(Array(text.utf8), absolute: true)
        case .uriReference:
            return Self.isURI(Array(text.utf8), absolute: false)
        case .ipv4:
            return Self.isIPv4(Array(text.utf8))
        case .ipv6:
            return Self.isIPv6(Array(text.utf8))
        }
    }

    // The URI and address checks walk the bytes once: no regular expression, so the time is linear in the text whatever
    // a server answers.

    /// Whether `b` is a URI (`absolute`: with a scheme) or a URI reference: only RFC 3986's characters (unreserved,
    /// reserved, `%` and two hex digits), `[`/`]` only in the authority, and a scheme of a letter then letters, digits,
    /// `+`, `-`, `.`, before the first `:`.
    static func isURI(_ b: [UInt8], absolute: Bool) -> Bool {
        func isAlpha(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        func isHex(_ c: UInt8) -> Bool { isDigit(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) }
        let allowed = Set(Array("-._~:/?#[]@!$&'()*+,;=".utf8))
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < b.count, isHex(b[i + 1]), isHex(b[i + 2]) else { return false }
                i += 3
                continue
            }
            guard isAlpha(c) || isDigit(c) || allowed.contains(c) else { return false }
            i += 1
        }
        // Where the path, query or fragment start: a scheme can only come before them.
        let firstColon = b.firstIndex(of: UInt8(ascii: ":"))
        let firstDelimiter = b.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? b.count
        let schemeEnd = firstColon.flatMap { $0 < firstDelimiter ? $0 : nil }
        if let end = schemeEnd {
            // A colon before any delimiter starts a scheme (a relative reference cannot have one there).
            guard end > 0, isAlpha(b[0]), b[1..<end].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return false }
        } else if absolute {
            return false
        }
        // Brackets belong to an IP literal in the authority only.
        let rest = b[(schemeEnd.map { $0 + 1 } ?? 0)...]
        let authorityEnd: Int
        if rest.starts(with: Array("//".utf8)) {
            let start = rest.startIndex + 2
            authorityEnd = b[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? b.count
        } else {
            authorityEnd = rest.startIndex
        }
        return !b[authorityEnd...].contains { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
    }

    /// Four decimal parts of 0–255, none with a leading zero.
    static func isIPv4(_ b: [UInt8]) -> Bool {
        let parts = b.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(isDigit), part.count == 1 || part.first != UInt8(ascii: "0") else { return false }
            return Int(String(decoding: part, as: UTF8.self)).map { $0 <= 255 } ?? false
        }
    }

    /// Eight 16-bit groups of hex (the last two may be an IPv4 address), at most one `::` standing for one or more.
    static func isIPv6(_ b: [UInt8]) -> Bool {
        guard b.count >= 2, b.count <= 45 else { return false }
        let text = String(decoding: b, as: UTF8.self)
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ half: String, last: Bool) -> Int? {
            guard !half.isEmpty else { return 0 }
            var count = 0
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() {
                if last && i == pieces.count - 1 && piece.contains(".") {
                    guard isIPv4(Array(piece.utf8)) else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.utf8.allSatisfy({ isDigit($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) })
                    else { return nil }
                    count += 1
                }
            }
            return count
        }
        if halves.count == 1 { return groups(halves[0], last: true) == 8 }
        guard let head = groups(halves[0], last: false), let tail = groups(halves[1], last: true) else { return false }
        return head + tail <= 7
    }

    // Live traffic validation checks these formats in every answer: the regular expressions stay the definition, the
    // byte checks below decide the same for printable ASCII (no line terminator, where `$` could match early) without ICU.

    /// The bytes of `text` when all are printable ASCII, else nil (then only the regular expression decides).
    static func plainASCII(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        return bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) ? bytes : nil
    }

    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    /// `^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$` on printable ASCII.
    static func isUUID(_ b: [UInt8]) -> Bool {
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !(isDigit(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)) {
                return false
            }
        }
        return true
    }

    /// The date-time regular expression's shape on printable ASCII (the range checks follow it as before).
    static func hasDateTimeShape(_ b: [UInt8]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= b.count && range.allSatisfy { isDigit(b[$0]) } }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue }
        guard digits(0..<4), at(4, "-"), digits(5..<7), at(7, "-"), digits(8..<10), at(10, "T") || at(10, "t"),
              digits(11..<13), at(13, ":"), digits(14..<16), at(16, ":"), digits(17..<19) else { return false }
        var i = 19
        if at(i, ".") {
            i += 1
            let start = i
            while i < b.count && isDigit(b[i]) { i += 1 }
            if i == start { return false }
        }
        let rest = b.count - i
        if rest == 1 { return at(i, "Z") || at(i, "z") }
        return rest == 6 && (at(i, "+") || at(i, "-")) && digits(i + 1..<i + 3) && at(i + 3, ":") && digits(i + 4..<i + 6)
    }
}
