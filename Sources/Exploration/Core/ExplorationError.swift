/// A problem that stops exploration before it starts (unreadable fixtures, a generated scenario the parser rejects).
public struct ExplorationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
