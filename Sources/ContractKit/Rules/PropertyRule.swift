import Foundation

/// The rules of one property of a JSON request body, in the order the contract states them.
///
/// A class, so the per-request loop over a body's properties retains a reference instead of copying every field.
public final class PropertyRule: Sendable {
    /// The property name.
    public let name: String
    /// Whether the property must be present (the object's `required`).
    public let required: Bool
    /// The answer for an absent required property; nil: the model's fallback, with an assumption.
    public let requiredAnswer: RuleAnswer?
    /// `x-trim`: string rules after `type` see the value trimmed of JavaScript white space.
    public let trim: Bool
    /// The checks in order: `x-errors`' key order first, then the schema's other keywords in file order.
    public let checks: [ValueCheck]
    /// What is stored from the sent value.
    public let storage: StoragePlan
    /// Where the property's schema is, for assumption texts: `createAnnouncement /request/body/properties/age`.
    let location: String
    /// The index of the first check that sees the trimmed text (every check after `type`); `Int.max` without `x-trim`.
    private let trimFrom: Int

    init(name: String, required: Bool, requiredAnswer: RuleAnswer?, trim: Bool, checks: [ValueCheck], storage: StoragePlan, location: String) {
        self.name = name
        self.required = required
        self.requiredAnswer = requiredAnswer
        self.trim = trim
        self.checks = checks
        self.storage = storage
        self.location = location
        trimFrom = trim ? (checks.firstIndex { $0.keyword != "type" } ?? Int.max) : Int.max
    }

    /// The first rule `value` (nil: absent) breaks, rendered; nil when it passes.
    @inline(__always)
    func firstRefusal(_ value: JSONValue?, context: RuleContext, fallback: RuleAnswer) -> RuleRefusal? {
        guard var value else {
            guard required else { return nil }
            return refusal("required", nil, requiredAnswer, received: "undefined", fallback: fallback)
        }
        for index in checks.indices {
            // `type` sees the value as sent; the rules after it see the trimmed text.
            if index == trimFrom, case .string(let text) = value { value = .string(JavaScriptText.trim(text)) }
            let check = checks[index]
            if !check.passes(value, context: context) {
                return refusal(check.keyword, check.bound, check.answer, received: ZodTypeName.of(value), fallback: fallback)
            }
        }
        return nil
    }

    /// Every rule `value` breaks, each keyword once, in the order the model checks them: `type` on the value as sent,
    /// the rest on the trimmed text when the property trims. A tool asking which rules a value exercises (exploration
    /// counts each generated value for the rules it breaks) reads them here, from the rules the model answers by,
    /// instead of evaluating JSON Schema a second time.
    public func brokenKeywords(_ value: JSONValue, context: RuleContext) -> [String] {
        var value = value
        var broken: [String] = []
        for index in checks.indices {
            if index == trimFrom, case .string(let text) = value { value = .string(JavaScriptText.trim(text)) }
            let check = checks[index]
            if !check.passes(value, context: context), !broken.contains(check.keyword) { broken.append(check.keyword) }
        }
        return broken
    }

    /// The rules of a property schema standing alone (a path or query parameter, a branch of a composition), compiled
    /// as a body property's are; the schema's `$ref`s resolve through `validator`. A keyword the compiler cannot use
    /// is left out, as `lint` reports it where the schema is loaded.
    public static func compiled(_ name: String, schema: JSONValue, required: Bool = false, validator: SchemaValidator) -> PropertyRule {
        var compiler = RuleCompiler(validator: validator)
        var stated = false
        return compiler.compileProperty(name, schema, required: required, requiredAnswer: nil, key: "", pointer: "", location: name,
                                        stated: &stated)
    }

    private func refusal(_ keyword: String, _ bound: String?, _ answer: RuleAnswer?, received: String, fallback: RuleAnswer) -> RuleRefusal {
        if let answer { return answer.refusal(field: name, received: received) }
        return RuleAnswer.unstated(keyword: keyword, bound: bound, fallback: fallback).refusal(field: name, received: received,
            assumption: "\(location): no x-errors for \(keyword); answered the contract's first 400 code, naming the rule")
    }
}
