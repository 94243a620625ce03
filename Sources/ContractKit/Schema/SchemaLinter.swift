import Foundation

/// Checks that a value is a schema the validator understands: known keywords with well-formed
/// values, compilable patterns, known formats and `$ref`s that resolve.
struct SchemaLinter {
    /// Keywords that only annotate; accepted anywhere and never checked.
    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly",
        "writeOnly",
    ]
    static let assertions: Set<String> = [
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems",
        "maxItems", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "format", "minimum",
        "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "allOf", "anyOf", "oneOf", "not", "$defs", "definitions",
    ]
    static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "integer", "string"]

    let file: String
    let validator: SchemaValidator
    let documentKey: String
    let documentRoot: JSONValue

    /// Every problem in `schema`, which sits at `pointer` in the file.
    func lint(_ schema: JSONValue, at pointer: String) -> [LintProblem] {
        var out: [LintProblem] = []
        func problem(_ p: String, _ message: String) { out.append(LintProblem(file: file, pointer: p, message: message)) }
        if case .bool = schema { return [] }
        guard case .object(let s) = schema else {
            return [LintProblem(file: file, pointer: pointer, message: "a schema must be an object or a boolean, found \(SchemaValidator.describe(schema))")]
        }
        for (key, value) in s {
            let at = JSONPointer.appending(pointer, key)
            if Self.annotations.contains(key) || key.hasPrefix("x-") { continue }
            guard Self.assertions.contains(key) else {
                problem(at, "unknown schema keyword \"\(key)\"; supported: \(Self.assertions.sorted().joined(separator: ", "))")
                continue
            }
            switch key {
            case "$ref":
                guard let ref = value.stringValue else { problem(at, "$ref must be a string"); continue }
                let scope = SchemaValidator.Scope(key: documentKey, root: documentRoot)
                if validator.resolve(ref, in: scope) == nil { problem(at, "the reference \(ref) does not resolve") }
            case "type":
                let names = value.arrayValue ?? [value]
                if names.isEmpty { problem(at, "type must name at least one type") }
                for name in names {
                    guard let text = name.stringValue, Self.typeNames.contains(text) else {
                        problem(at, "type must be one of \(Self.typeNames.sorted().joined(separator: ", ")) or an array of them, found \(name.serialized())")
                        continue
                    }
                }
            case "enum":
                if (value.arrayValue ?? []).isEmpty { problem(at, "enum must be a non-empty array") }
            case "required":
                guard let names = value.arrayValue, names.allSatisfy({ $0.stringValue != nil }) else {
                    problem(at, "required must be an array of property names"); continue
                }
                if Set(names).count != names.count { problem(at, "required lists a property twice") }
            case "properties", "$defs", "definitions":
                guard let members = value.objectValue else { problem(at, "\(key) must be an object of schemas"); continue }
                for (name, sub) in members { out += lint(sub, at: JSONPointer.appending(at, name)) }
            case "items", "additionalProperties", "not":
                out += lint(value, at: at)
            case "allOf", "anyOf", "oneOf":
                guard let items = value.arrayValue, !items.isEmpty else { problem(at, "\(key) must be a non-empty array of schemas"); continue }
                for (i, sub) in items.enumerated() { out += lint(sub, at: JSONPointer.appending(at, i)) }
            case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
                if value.intValue.map({ $0 < 0 }) ?? true { problem(at, "\(key) must be a non-negative integer") }
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
                if value.numberValue == nil { problem(at, "\(key) must be a number") }
            case "multipleOf":
                if value.numberValue.map({ !($0 > 0) }) ?? true { problem(at, "multipleOf must be a number greater than 0") }
            case "pattern":
                guard let pattern = value.stringValue else { problem(at, "pattern must be a string"); continue }
                if case .failure(let error) = RegexCache.shared.compile(pattern) { problem(at, Self.patternProblem(pattern, error)) }
            case "format":
                guard let name = value.stringValue, SchemaFormat(rawValue: name) != nil else {
                    problem(at, "format must be one of \(SchemaFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                    continue
                }
            default:
                break  // const accepts any value
            }
        }
        if let required = s["required"]?.arrayValue?.compactMap(\.stringValue), s["additionalProperties"] == .bool(false),
            let properties = s["properties"]?.objectValue
        {
            for name in required where properties[name] == nil {
                problem(JSONPointer.appending(pointer, "required"), "\(name) is required but additionalProperties is false and properties does not list it")
            }
        }
        return out
    }

    /// What lint says about a `pattern` that `LinearPattern` refuses, by the kind of refusal.
    static func patternProblem(_ pattern: String, _ error: LinearPatternError) -> String {
        switch error.reason {
        case .notLinear:
            return "pattern \(pattern) cannot be matched in time linear in the input: \(error); patterns are matched without backtracking, so that no value can stall the server"
        case .unsupported:
            return "pattern \(pattern) uses a construct SpotCheck's matcher does not support: \(error)"
        case .tooLarge:
            return "pattern \(pattern) is too large: \(error)"
        case .syntax:
            return "pattern \(pattern) is not a valid regular expression: \(error)"
        }
    }
}
