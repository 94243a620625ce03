import Foundation

/// One expectation that did not hold.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// What was checked, e.g. `alert kind`.
    public var subject: String
    /// What the scenario expected.
    public var expected: String
    /// What actually happened.
    public var actual: String

    /// A mismatch of `subject`.
    public init(_ subject: String, expected: String, actual: String) {
        self.subject = subject
        self.expected = expected
        self.actual = actual
    }

    /// The text shown to people.
    public var description: String { "\(subject): expected \(expected), got \(actual)" }
}
