import Foundation

/// A check too particular for JSON Schema, written in Swift and named by the contracts with `x-check`.
public enum NamedCheck: String, Sendable, CaseIterable {
    /// A `YYYY-MM-DD` text whose day, as JavaScript's `new Date` reads it (`2025-02-30` is March 2), is not after
    /// today; an invalid date fails.
    case javaScriptDateNotAfterToday = "javascript-date-not-after-today"

    /// Whether `value` passes.
    func passes(_ value: JSONValue, context: RuleContext) -> Bool {
        switch self {
        case .javaScriptDateNotAfterToday:
            guard case .string(let text) = value, let day = JavaScriptDate.day(text) else { return false }
            return day <= context.today
        }
    }
}

/// A named transformation of a stored value (`x-sanitize`, `x-stored-key`), applied by whoever stores it.
public enum NamedTransform: String, Sendable, CaseIterable {
    /// The `xss` package with an empty allow-list (MockBackend's `HTMLSanitizer`), surrounding spaces kept.
    case xss
    /// `toLowerCase()`.
    case lowercase
}
