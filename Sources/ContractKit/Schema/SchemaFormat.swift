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
            return CalendarDate.isValid(text)
        case .dateTime:
            guard RegexCache.shared.matches(
                #"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"#,
                text) == true
            else { return false }
            let chars = Array(text)
            guard CalendarDate.isValid(String(chars[0..<10])),
                let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])),
                let second = Int(String(chars[17..<19]))
            else { return false }
            return hour < 24 && minute < 60 && second <= 60
        }
    }
}
