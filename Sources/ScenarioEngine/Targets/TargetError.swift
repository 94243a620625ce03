import Foundation
import MockBackend

/// A target could not be started; the scenario is reported as failed with this message.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    /// The text shown to people.
    public var description: String { message }
}
