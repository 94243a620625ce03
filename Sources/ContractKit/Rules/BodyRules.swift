import Foundation

/// The rules of a JSON request body, compiled once from its schema's `x-…` keywords: which answer the first issue of a
/// body gets, and what is stored from it.
///
/// Like a strict zod object, only the first issue is answered: no JSON body at all (`undefined`), a root that is not
/// an object (`type`), then the object's phases in `x-issue-order` (by default each property in the schema's order,
/// then unknown keys, then the root `anyOf`).
public struct BodyRules: Sendable {
    /// One object-level phase.
    enum Phase: String, Sendable, CaseIterable {
        case properties, additionalProperties, anyOf, oneOf, allOf, not
    }

    /// The body's properties, in the schema's order.
    public let properties: [PropertyRule]
    /// The property names, for the unknown-key phase.
    let known: Set<String>
    /// The property names in order, shared by every `StoredBody`.
    let names: [String]
    /// Answers of the object-level rules by keyword (`undefined`, `type`, `additionalProperties`, `anyOf`, …).
    let rootAnswers: [String: RuleAnswer]
    /// Whether unknown keys are refused (`additionalProperties: false`), or the schema they must satisfy.
    let additional: CompiledSchema?
    let forbidsAdditional: Bool
    /// The root's composition keywords, each compiled alone.
    let compositions: [Phase: CompiledSchema]
    /// The phases in the order they are checked.
    let order: [Phase]
    /// The answer where the contract states none: its first documented 400 (the assumption says so).
    let fallback: RuleAnswer
    /// Where the schema is, for assumption texts.
    let location: String

    /// The first issue of `body` (nil: no JSON body was parsed), or nil when the body passes every rule.
    public func firstRefusal(in body: JSONValue?, context: RuleContext) -> RuleRefusal? {
        guard let body else { return root("undefined", received: "undefined") }
        guard case .object(let object) = body else { return root("type", received: ZodTypeName.of(body)) }
        for phase in order {
            switch phase {
            case .properties:
                for property in properties {
                    if let refusal = property.firstRefusal(object[property.name], context: context, fallback: fallback) { return refusal }
                }
            case .additionalProperties:
                guard forbidsAdditional || additional != nil else { continue }
                for (key, value) in object where !known.contains(key) {
                    if forbidsAdditional || additional?.isValid(value) == false { return root("additionalProperties", key: key) }
                }
            case .anyOf, .oneOf, .allOf, .not:
                if let schema = compositions[phase], !schema.isValid(body) { return root(phase.rawValue) }
            }
        }
        return nil
    }

    /// The values to store from a body that passed, one per property in the schema's order (absent ones as null).
    public func stored(from body: JSONObject, sanitizer: (NamedTransform, String) -> String) -> StoredBody {
        var values: [JSONValue] = []
        values.reserveCapacity(properties.count)
        for property in properties { values.append(property.storage.stored(body[property.name], sanitizer: sanitizer)) }
        return StoredBody(names: names, values: values)
    }

    /// The property rule named `name`.
    public func property(_ name: String) -> PropertyRule? {
        properties.first { $0.name == name }
    }

    private func root(_ keyword: String, received: String = "", key: String = "") -> RuleRefusal {
        if let answer = rootAnswers[keyword] { return answer.refusal(field: key, received: received, key: key) }
        let plain = RuleAnswer.unstated(keyword: keyword, fallback: fallback, field: keyword == "additionalProperties" ? "{key}" : nil)
        return plain.refusal(field: "body", received: received, key: key,
                             assumption: "\(location): no x-errors for \(keyword); answered the contract's first 400 code, naming the rule")
    }
}

/// What is stored from a body: one value per property of the body's schema, in its order.
public struct StoredBody: Sendable {
    /// The property names, in the schema's order.
    public let names: [String]
    /// The stored values, parallel to `names`.
    public let values: [JSONValue]

    /// The stored value of property `name`; nil for a name the schema does not have.
    public subscript(name: String) -> JSONValue? {
        names.firstIndex(of: name).map { values[$0] }
    }
}
