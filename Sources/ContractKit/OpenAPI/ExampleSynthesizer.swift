import Foundation

/// Makes one value that satisfies a schema, for a documented answer the document gives no example of: a team's
/// document often shows examples for the success only, yet every answer it documents should be served and checked.
/// Stated values win (`const`, `default`, `examples`, the first `enum` value); otherwise the least value the keywords
/// allow. The result is checked against the schema, and nil when it does not pass (a `pattern` it cannot meet, say).
struct ExampleSynthesizer {
    let validator: SchemaValidator

    func example(for schema: JSONValue) -> JSONValue? {
        let value = make(schema, scope: SchemaValidator.Scope(key: "", root: schema), depth: 0)
        // A null made for a schema that is not about null means a reference did not resolve: no example then.
        if value == .null, schema["type"] != "null" { return nil }
        // Not a ternary: JSONValue is ExpressibleByNilLiteral, so `? value : nil` would give JSON null, not no example.
        guard validator.isValid(value, against: schema) else { return Optional<JSONValue>.none }
        return value
    }

    private func make(_ schema: JSONValue, scope: SchemaValidator.Scope, depth: Int) -> JSONValue {
        guard depth < 24, case .object(let s) = schema else { return .null }
        if let ref = s["$ref"]?.stringValue {
            guard let (target, targetScope) = validator.resolve(ref, in: scope) else { return .null }
            return make(target, scope: targetScope, depth: depth + 1)
        }
        if let value = s["const"] { return value }
        if let value = s["default"] { return value }
        if let value = s["examples"]?.arrayValue?.first { return value }
        if let values = s["enum"]?.arrayValue, let first = values.first(where: { $0 != .null }) ?? values.first { return first }
        if let parts = s["allOf"]?.arrayValue, !parts.isEmpty {
            var merged = JSONObject()
            var last: JSONValue = .null
            for part in parts {
                last = make(part, scope: scope, depth: depth + 1)
                for (k, v) in last.objectValue ?? JSONObject() { merged[k] = v }
            }
            if s["properties"] != nil || !merged.isEmpty {
                for (k, v) in make(.object(s.filtering { $0 != "allOf" }), scope: scope, depth: depth + 1).objectValue ?? JSONObject() where merged[k] == nil {
                    merged[k] = v
                }
                return .object(merged)
            }
            return last
        }
        for key in ["oneOf", "anyOf"] {
            if let first = s[key]?.arrayValue?.first, s["type"] == nil, s["properties"] == nil {
                return make(first, scope: scope, depth: depth + 1)
            }
        }
        let types: [String]
        switch s["type"] {
        case .string(let name): types = [name]
        case .array(let names): types = names.compactMap(\.stringValue)
        default: types = s["properties"] != nil ? ["object"] : s["items"] != nil ? ["array"] : ["string"]
        }
        switch types.first(where: { $0 != "null" }) ?? "null" {
        case "object":
            var object = JSONObject()
            let required = Set((s["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            for (name, property) in s["properties"]?.objectValue ?? JSONObject() where required.contains(name) {
                object[name] = make(property, scope: scope, depth: depth + 1)
            }
            return .object(object)
        case "array":
            let count = s["minItems"]?.intValue ?? 0
            let item = s["items"].map { make($0, scope: scope, depth: depth + 1) } ?? .null
            return .array(Array(repeating: item, count: max(0, count)))
        case "integer", "number":
            var value = 0.0
            if let minimum = s["minimum"]?.numberValue { value = max(value, minimum) }
            if let exclusive = s["exclusiveMinimum"]?.numberValue { value = max(value, exclusive + 1) }
            if let maximum = s["maximum"]?.numberValue { value = min(value, maximum) }
            if let exclusive = s["exclusiveMaximum"]?.numberValue, value >= exclusive { value = exclusive - 1 }
            return .number(value.rounded(.up))
        case "boolean":
            return .bool(true)
        case "null":
            return .null
        default:
            switch s["format"]?.stringValue {
            case "uuid": return "3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60"
            case "email": return "someone@example.com"
            case "date": return "2025-01-01"
            case "date-time": return "2025-01-01T00:00:00.000Z"
            case "uri": return "https://example.com/"
            case "uri-reference": return "/"
            case "ipv4": return "192.0.2.1"
            case "ipv6": return "2001:db8::1"
            default:
                let minimum = s["minLength"]?.intValue ?? 0
                var text = "text"
                while text.count < minimum { text += "x" }
                if let maximum = s["maxLength"]?.intValue, text.count > maximum { text = String(text.prefix(max(maximum, minimum))) }
                return .string(text)
            }
        }
    }
}

extension JSONObject {
    /// The members whose key passes `keep`, in order.
    func filtering(_ keep: (String) -> Bool) -> JSONObject {
        JSONObject(members.filter { keep($0.key) }.map { ($0.key, $0.value) })
    }
}
