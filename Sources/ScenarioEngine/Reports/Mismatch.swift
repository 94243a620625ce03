import Foundation

/// One expectation that did not hold.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// What was checked, e.g. `alert kind`.
    public var subject: String
    /// What the scenario expected.
    public var expected: String
    /// What actually happened.
    public var actual: String

    /// A sentence that replaces "expected …, got …" when the difference needs explaining (e.g. an alert against its cause).
    public var explanation: String?
    /// Why this check matters, when the check has its own rule (e.g. the date rule of the sent body); otherwise the
    /// step's `because` explains it.
    public var why: String?
    /// Advice for the person reading (e.g. which flag skips this check); shown in human output only, never in the data.
    public var hint: String?
    /// The drift this mismatch shows, spelled the same whichever request showed it (`DriftKey`): the drift report says
    /// each drift once, with every place it was seen. Nil for a mismatch that is its own finding.
    public var drift: String?

    /// A mismatch of `subject`.
    public init(_ subject: String, expected: String, actual: String, explanation: String? = nil, why: String? = nil, hint: String? = nil) {
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.explanation = explanation
        self.why = why
        self.hint = hint
    }

    /// Equal when they say the same to a person: the drift key is how reports group them, not what they say.
    public static func == (lhs: Mismatch, rhs: Mismatch) -> Bool {
        lhs.subject == rhs.subject && lhs.expected == rhs.expected && lhs.actual == rhs.actual && lhs.explanation == rhs.explanation
            && lhs.why == rhs.why && lhs.hint == rhs.hint
    }

    /// The text shown to people.
    public var description: String {
        let text = explanation.map { "\(subject): \($0)" } ?? "\(subject): expected \(expected), got \(actual)"
        return hint.map { "\(text) (\($0))" } ?? text
    }
}
