/// A client driver could not get an answer from the client; the scenario fails with this message, unless `reason` says
/// the client declined in a way the protocol allows.
public struct DriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An answer that is not a broken client.
    public enum Reason: Sendable, Equatable {
        /// The driver cannot perform this optional action (`"outcome": "unsupported"`): the scenario is skipped.
        case unsupported(action: String)
        /// The app stopped the user at an earlier step of the flow (`stoppedAt`): judged against the seeds.
        case stoppedEarlier(EarlierStop)
    }

    /// What went wrong, for a person.
    public let message: String
    /// The last lines the client wrote to stderr, when it is a process.
    public let stderrTail: String?
    /// Set when the client declined as the protocol allows rather than broke.
    public let reason: Reason?

    /// An error with this message, optional stderr tail and optional reason.
    public init(_ message: String, stderrTail: String? = nil, reason: Reason? = nil) {
        self.message = message
        self.stderrTail = stderrTail
        self.reason = reason
    }

    /// The same error with the client's stderr tail attached.
    public func with(stderrTail: String?) -> DriverError {
        DriverError(message, stderrTail: stderrTail, reason: reason)
    }

    /// The text shown to people.
    public var description: String {
        guard let tail = stderrTail, !tail.isEmpty else { return message }
        return message + "\n--- client stderr (tail) ---\n" + tail
    }
}
