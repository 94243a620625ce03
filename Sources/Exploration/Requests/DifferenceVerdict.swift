/// What a difference from the model means: the server broke a rule the contracts state, or it differs only where the
/// contracts state nothing and the model had to assume (design.md, "Verdicts: stated rules fail, guesses are notes").
public enum DifferenceVerdict: Sendable, Hashable {
    /// The model's answer follows from stated rules only: the server breaks the contract.
    case failure
    /// The model's answer rests on these assumptions (sentences for a person): reported, failed only under `--strict`.
    case note(assumptions: [String])

    /// The assumptions a note names; empty for a failure.
    public var assumptions: [String] {
        if case .note(let assumptions) = self { return assumptions }
        return []
    }

    /// Whether this is a note.
    public var isNote: Bool { !assumptions.isEmpty }
}
