/// Why a JSON Schema `pattern` cannot be compiled into a `LinearPattern`, and where in the pattern.
public struct LinearPatternError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of refusal; `notLinear` constructs need a backtracking engine, which SpotCheck never uses.
    public enum Reason: Equatable, Sendable {
        /// A construct only a backtracking matcher can run (backreferences, lookaround).
        case notLinear
        /// Valid ECMA-262 that this matcher does not implement (e.g. `\p{...}`).
        case unsupported
        /// Not a valid pattern at all.
        case syntax
        /// Counted repetitions would expand the program beyond `LinearPatternCompiler.maximumSize`.
        case tooLarge
    }

    /// The kind of refusal.
    public let reason: Reason
    /// What is wrong, written for a person.
    public let message: String
    /// 1-based position (in Unicode scalars) of the offending construct in the pattern.
    public let position: Int

    /// A refusal at the 0-based scalar `offset`.
    init(_ reason: Reason, _ message: String, offset: Int) {
        self.reason = reason
        self.message = message
        self.position = offset + 1
    }

    /// The message with its position, e.g. "a backreference (\1) ... at character 6".
    public var description: String { "\(message), at character \(position)" }
}
