import Foundation

/// An error answer the service file states: status, envelope code, message and, optionally, the field it is about.
///
/// `message` may hold `{charset}` (the body parser's unsupported charset, upper case); nothing else is filled in.
public struct ServiceAnswer: Sendable, Equatable {
    /// The HTTP status.
    public let status: Int
    /// The envelope's `code`.
    public let code: String
    /// The envelope's `message`.
    public let message: String
    /// The envelope's `field`; nil leaves the key out.
    public let field: String?

    /// An answer with these parts.
    public init(status: Int, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// This answer with `{name}` placeholders in the message replaced by `values`.
    public func filling(_ values: [String: String]) -> ServiceAnswer {
        var text = message
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return ServiceAnswer(status: status, code: code, message: text, field: field)
    }
}
