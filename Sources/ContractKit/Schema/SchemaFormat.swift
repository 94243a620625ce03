import Foundation

/// The `format` values the validator asserts; any other format is a lint problem.
enum SchemaFormat: String, CaseIterable {
    case uuid
    case email
    case date
    case dateTime = "date-time"

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
        }
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
