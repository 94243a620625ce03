/// A client driver could not get an answer from the client; the scenario fails with this message.
public struct DriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String
    /// The last lines the client wrote to stderr, when it is a process.
    public let stderrTail: String?

    /// An error with this message and optional stderr tail.
    public init(_ message: String, stderrTail: String? = nil) {
        self.message = message
        self.stderrTail = stderrTail
    }

    /// The text shown to people.
    public var description: String {
        guard let tail = stderrTail, !tail.isEmpty else { return message }
        return message + "\n--- client stderr (tail) ---\n" + tail
    }
}
