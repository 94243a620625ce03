import Foundation

/// One keyword of a property or parameter schema, compiled once: what it checks and the answer when it fails.
///
/// A class: a compiled pattern is a wide value, and a struct holding one was copied (every array retained and released)
/// each time a rule loop visited it; a reference is retained once.
public final class ValueCheck: Sendable {
    /// What is checked.
    enum Test: Sendable {
        case type(JSONTypeSet)
        case minLength(Int)
        case maxLength(Int)
        case pattern(LinearPattern, shortcut: Bool)
        case minimum(Double)
        case maximum(Double)
        case exclusiveMinimum(Double)
        case exclusiveMaximum(Double)
        case multipleOf(Double)
        case named(NamedCheck)
        /// Any other keyword (`enum`, `const`, `not`, `allOf`, `format`, …): the keyword alone, as a compiled schema.
        case schema(CompiledSchema)
    }

    /// The keyword, e.g. `maxLength` or `x-check`.
    public let keyword: String
    let test: Test
    /// The contract's answer; nil: the model answers its fallback and records an assumption.
    public let answer: RuleAnswer?

    init(keyword: String, test: Test, answer: RuleAnswer?) {
        self.keyword = keyword
        self.test = test
        self.answer = answer
    }

    /// The keyword's bound as the contract writes it (`20` for `maxLength: 20`), for the answer of a rule the contract
    /// states none for; nil for keywords without a single bound.
    var bound: String? {
        switch test {
        case .minLength(let n), .maxLength(let n): return String(n)
        case .minimum(let n), .maximum(let n), .exclusiveMinimum(let n), .exclusiveMaximum(let n), .multipleOf(let n):
            return JSONValue.number(n).serialized()
        case .type, .pattern, .named, .schema: return nil
        }
    }

    /// Whether the check applies to `value` at all: string keywords skip non-strings and number keywords non-numbers,
    /// as in JSON Schema.
    @inline(__always)
    func passes(_ value: JSONValue, context: RuleContext) -> Bool {
        switch test {
        case .type(let types):
            return types.matches(value)
        case .minLength(let n):
            guard case .string(let s) = value else { return true }
            return JavaScriptText.length(s) >= n
        case .maxLength(let n):
            guard case .string(let s) = value else { return true }
            return JavaScriptText.length(s) <= n
        case .pattern(let pattern, let shortcut):
            guard case .string(let s) = value else { return true }
            if shortcut, let known = PatternShortcut.matches(pattern.source, s) { return known }
            return pattern.matches(s)
        case .minimum(let bound):
            guard case .number(let n) = value else { return true }
            return n >= bound
        case .maximum(let bound):
            guard case .number(let n) = value else { return true }
            return n <= bound
        case .exclusiveMinimum(let bound):
            guard case .number(let n) = value else { return true }
            return n > bound
        case .exclusiveMaximum(let bound):
            guard case .number(let n) = value else { return true }
            return n < bound
        case .multipleOf(let step):
            guard case .number(let n) = value else { return true }
            return Self.isMultiple(n, of: step)
        case .named(let check):
            return check.passes(value, context: context)
        case .schema(let schema):
            return schema.isValid(value)
        }
    }

    /// JSON Schema's `multipleOf` (the quotient is whole); Infinity and NaN are multiples of nothing.
    static func isMultiple(_ n: Double, of step: Double) -> Bool {
        guard n.isFinite else { return false }
        let quotient = n / step
        return quotient.isFinite && quotient.rounded(.towardZero) == quotient
    }
}
