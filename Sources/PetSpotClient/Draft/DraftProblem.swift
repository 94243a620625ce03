/// One problem with a draft or form input: which field and a message for the person filling it in.
public struct DraftProblem: Sendable, Hashable, CustomStringConvertible {
    /// The field, named as in the API where there is one (`species`, `phone`, `photo`, ...).
    public let field: String
    /// The message shown next to the field.
    public let message: String

    /// Creates a problem.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}
