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
            return RegexCache.shared.matches(
                "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$", text) == true
        case .email:
            return RegexCache.shared.matches(#"^[^\s@]+@[^\s@]+\.[^\s@]+$"#, text) == true
        case .date:
            return Self.isDate(text)
        case .dateTime:
            guard RegexCache.shared.matches(
                #"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"#,
                text) == true
            else { return false }
            let chars = Array(text)
            guard Self.isDate(String(chars[0..<10])),
                let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])),
                let second = Int(String(chars[17..<19]))
            else { return false }
            return hour < 24 && minute < 60 && second <= 60
        }
    }

    /// A calendar date written `YYYY-MM-DD` (leap years respected).
    static func isDate(_ text: String) -> Bool {
        guard RegexCache.shared.matches("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", text) == true else { return false }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return false }
        let (year, month, day) = (parts[0], parts[1], parts[2])
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }
}
