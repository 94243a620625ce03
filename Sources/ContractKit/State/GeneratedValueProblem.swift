/// How a value a server made differs from what its named generator (`x-state.generate`) states: what was expected and
/// what came, in the words reports use (`expected …, got …`).
public struct GeneratedValueProblem: Sendable, Equatable, Error {
    /// What the generator states, e.g. `a version 4 UUID (version nibble 4, variant nibble 8, 9, a or b)`.
    public let expected: String
    /// What the value is instead, quoted where it is text.
    public let got: String

    /// A problem from its two sides.
    public init(expected: String, got: String) {
        self.expected = expected
        self.got = got
    }

    /// A string value quoted for reports, cut after 120 characters.
    static func quoted(_ text: String) -> String {
        let cut = text.count > 120 ? String(text.prefix(120)) + "…" : text
        return "\"\(cut)\""
    }
}
