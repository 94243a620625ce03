import Foundation

/// What is stored from a sent property (`x-stored`, `x-empty-as-null`, `x-sanitize`, `x-stored-key`).
public struct StoragePlan: Sendable, Equatable {
    /// Which form of the sent text is kept.
    public enum Form: String, Sendable {
        /// The value exactly as sent (the default).
        case asSent = "as-sent"
        /// Text trimmed of JavaScript white space.
        case trimmed
    }

    /// `x-stored`.
    public var form: Form = .asSent
    /// `x-empty-as-null`: an empty text (after `form`, before sanitizing) is stored as null.
    public var emptyAsNull = false
    /// `x-sanitize`: the transformation applied to stored text.
    public var sanitize: NamedTransform?
    /// `x-stored-key`: how the value is normalised where it serves as a unique key (e.g. users' email).
    public var key: NamedTransform?

    /// A plan that stores the value as sent.
    public init(form: Form = .asSent, emptyAsNull: Bool = false, sanitize: NamedTransform? = nil, key: NamedTransform? = nil) {
        self.form = form
        self.emptyAsNull = emptyAsNull
        self.sanitize = sanitize
        self.key = key
    }

    /// The value to store for `sent` (nil: the key was absent, stored as null); `sanitizer` applies `sanitize`.
    public func stored(_ sent: JSONValue?, sanitizer: (NamedTransform, String) -> String) -> JSONValue {
        guard let sent else { return .null }
        guard case .string(var text) = sent else { return sent }
        if form == .trimmed { text = JavaScriptText.trim(text) }
        if emptyAsNull, text.isEmpty { return .null }
        if let sanitize { text = sanitizer(sanitize, text) }
        return .string(text)
    }
}
