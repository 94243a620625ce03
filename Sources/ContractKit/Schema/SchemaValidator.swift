import Foundation

/// Validates JSON instances against the JSON Schema (2020-12) subset the contracts use.
///
/// Violations come in a fixed order because the mock backend reports the first one as the real
/// backend does: unknown properties first, then property by property in the schema's
/// `properties` order (a missing required property at its own position), then the rest
/// (composition keywords such as a root `anyOf`).
public struct SchemaValidator: Sendable {
    /// Schema documents by their path relative to the contracts folder, e.g. "schemas/Announcement.json".
    public let documents: [String: JSONValue]

    /// Following more `$ref`s than this in one chain means a cycle.
    static let maximumReferenceDepth = 64

    /// Every `$ref` in `documents` whose file part names a document, resolved once: live traffic validation follows the
    /// same references on every exchange, and resolving them each time was 39 % of a create's CPU (issue 16).
    let resolvedReferences: [String: (schema: JSONValue, scope: Scope)]

    /// A validator that resolves `$ref`s against `documents` (keys are paths relative to the contracts folder).
    public init(documents: [String: JSONValue] = [:]) {
        self.documents = documents
        var references: Set<String> = []
        for document in documents.values { Self.collectReferences(in: document, into: &references) }
        var resolved: [String: (schema: JSONValue, scope: Scope)] = [:]
        for ref in references {
            // Only a file part that is itself a document key resolves the same from every referring document.
            let (filePart, fragment) = SchemaReference.split(ref)
            guard !filePart.isEmpty, let document = documents[filePart], let schema = JSONPointer.resolve(fragment, in: document) else { continue }
            resolved[ref] = (schema, Scope(key: filePart, root: document))
        }
        self.resolvedReferences = resolved
    }

    private static func collectReferences(in value: JSONValue, into references: inout Set<String>) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if key == "$ref", case .string(let ref) = member { references.insert(ref) } else { collectReferences(in: member, into: &references) }
            }
        case .array(let items):
            for item in items { collectReferences(in: item, into: &references) }
        default:
            break
        }
    }

    /// Every violation of `schema` by `instance`, in reporting order; [] means valid.
    public func validate(_ instance: JSONValue, against schema: JSONValue) -> [SchemaViolation] {
        check(instance, schema, at: "", in: Scope(key: "", root: schema), depth: 0)
    }

    /// Whether `instance` satisfies `schema`.
    public func isValid(_ instance: JSONValue, against schema: JSONValue) -> Bool {
        validate(instance, against: schema).isEmpty
    }

    /// The document a schema came from, so that "#/..." references resolve inside it.
    struct Scope {
        let key: String
        let root: JSONValue
    }

    /// The schema `ref` designates and the document it lives in, or nil when it does not resolve.
    func resolve(_ ref: String, in scope: Scope) -> (schema: JSONValue, scope: Scope)? {
        if let known = resolvedReferences[ref] { return known }
        let (filePart, fragment) = SchemaReference.split(ref)
        var target = scope
        if !filePart.isEmpty {
            // The file part as written first, then relative to the referring document.
            if let doc = documents[filePart] {
                target = Scope(key: filePart, root: doc)
            } else {
                guard let key = SchemaReference.join(base: scope.key, relative: filePart), let doc = documents[key] else { return nil }
                target = Scope(key: key, root: doc)
            }
        }
        guard let schema = JSONPointer.resolve(fragment, in: target.root) else { return nil }
        return (schema, target)
    }

    func check(_ instance: JSONValue, _ schema: JSONValue, at pointer: String, in scope: Scope, depth: Int)
        -> [SchemaViolation]
    {
        if case .bool(let allowed) = schema {
            return allowed ? [] : [SchemaViolation(pointer: pointer, keyword: "false", message: "no value is allowed here")]
        }
        guard case .object(let s) = schema else { return [] }
        var out: [SchemaViolation] = []

        if case .string(let ref)? = s["$ref"] {
            if depth >= Self.maximumReferenceDepth {
                return [SchemaViolation(pointer: pointer, keyword: "$ref", message: "the reference \(ref) loops")]
            }
            guard let (target, targetScope) = resolve(ref, in: scope) else {
                return [SchemaViolation(pointer: pointer, keyword: "$ref", message: "the reference \(ref) does not resolve")]
            }
            out += check(instance, target, at: pointer, in: targetScope, depth: depth + 1)
        }

        if let type = s["type"], !Self.matchesType(instance, type) {
            // Other keywords would only repeat the same complaint in other words.
            return out + [SchemaViolation(pointer: pointer, keyword: "type",
                message: "\(Self.subject(pointer)) must be \(Self.typeList(type)), found \(Self.describe(instance))")]
        }
        if let options = s["enum"]?.arrayValue, !options.contains(where: { Self.equal($0, instance) }) {
            out.append(SchemaViolation(pointer: pointer, keyword: "enum",
                message: "\(Self.subject(pointer)) must be one of \(options.map { $0.serialized() }.joined(separator: ", ")), found \(Self.describe(instance))"))
        }
        if let constant = s["const"], !Self.equal(constant, instance) {
            out.append(SchemaViolation(pointer: pointer, keyword: "const",
                message: "\(Self.subject(pointer)) must be \(constant.serialized()), found \(Self.describe(instance))"))
        }
        switch instance {
        case .string(let text): out += checkString(text, s, at: pointer)
        case .number(let n): out += checkNumber(n, s, at: pointer)
        case .object(let object): out += checkObject(object, s, at: pointer, in: scope, depth: depth)
        case .array(let items): out += checkArray(items, s, at: pointer, in: scope, depth: depth)
        default: break
        }
        out += checkComposition(instance, s, at: pointer, in: scope, depth: depth)
        return out
    }

    /// The string keywords, with the one set of rules and messages the compiled check uses too.
    func checkString(_ text: String, _ s: JSONObject, at pointer: String) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        CompiledStringChecks(keywords: s).check(text, at: pointer, into: &out)
        return out
    }

    /// The number keywords, with the one set of rules and messages the compiled check uses too.
    func checkNumber(_ n: Double, _ s: JSONObject, at pointer: String) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        CompiledNumberChecks(keywords: s).check(n, at: pointer, into: &out)
        return out
    }

    func checkObject(_ object: JSONObject, _ s: JSONObject, at pointer: String, in scope: Scope, depth: Int)
        -> [SchemaViolation]
    {
        var out: [SchemaViolation] = []
        let properties = s["properties"]?.objectValue ?? JSONObject()
        let required = (s["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        if let additional = s["additionalProperties"] {
            for (key, value) in object where properties[key] == nil {
                let child = JSONPointer.appending(pointer, key)
                if additional == .bool(false) {
                    out.append(SchemaViolation(pointer: child, keyword: "additionalProperties",
                        message: "\(key) is not an allowed property"))
                } else {
                    out += check(value, additional, at: child, in: scope, depth: depth)
                }
            }
        }
        for (key, propertySchema) in properties {
            let child = JSONPointer.appending(pointer, key)
            if let value = object[key] {
                out += check(value, propertySchema, at: child, in: scope, depth: depth)
            } else if required.contains(key) {
                out.append(SchemaViolation(pointer: child, keyword: "required", message: "\(key) is required"))
            }
        }
        for key in required where properties[key] == nil && object[key] == nil {
            out.append(SchemaViolation(pointer: JSONPointer.appending(pointer, key), keyword: "required",
                message: "\(key) is required"))
        }
        if let min = s["minProperties"]?.intValue, object.count < min {
            out.append(SchemaViolation(pointer: pointer, keyword: "minProperties",
                message: "\(Self.subject(pointer)) must have at least \(min) properties, found \(object.count)"))
        }
        if let max = s["maxProperties"]?.intValue, object.count > max {
            out.append(SchemaViolation(pointer: pointer, keyword: "maxProperties",
                message: "\(Self.subject(pointer)) must have at most \(max) properties, found \(object.count)"))
        }
        return out
    }

    func checkArray(_ items: [JSONValue], _ s: JSONObject, at pointer: String, in scope: Scope, depth: Int)
        -> [SchemaViolation]
    {
        var out: [SchemaViolation] = []
        if let min = s["minItems"]?.intValue, items.count < min {
            out.append(SchemaViolation(pointer: pointer, keyword: "minItems",
                message: "\(Self.subject(pointer)) must have at least \(min) item\(min == 1 ? "" : "s"), found \(items.count)"))
        }
        if let max = s["maxItems"]?.intValue, items.count > max {
            out.append(SchemaViolation(pointer: pointer, keyword: "maxItems",
                message: "\(Self.subject(pointer)) must have at most \(max) item\(max == 1 ? "" : "s"), found \(items.count)"))
        }
        if let itemSchema = s["items"] {
            for (i, item) in items.enumerated() {
                out += check(item, itemSchema, at: JSONPointer.appending(pointer, i), in: scope, depth: depth)
            }
        }
        return out
    }

    func checkComposition(_ instance: JSONValue, _ s: JSONObject, at pointer: String, in scope: Scope, depth: Int)
        -> [SchemaViolation]
    {
        var out: [SchemaViolation] = []
        if let all = s["allOf"]?.arrayValue {
            for sub in all { out += check(instance, sub, at: pointer, in: scope, depth: depth) }
        }
        if let any = s["anyOf"]?.arrayValue,
            !any.contains(where: { check(instance, $0, at: pointer, in: scope, depth: depth).isEmpty })
        {
            out.append(SchemaViolation(pointer: pointer, keyword: "anyOf",
                message: "\(Self.subject(pointer)) must match at least one of: \(Self.alternatives(any))"))
        }
        if let one = s["oneOf"]?.arrayValue {
            let matching = one.filter { check(instance, $0, at: pointer, in: scope, depth: depth).isEmpty }.count
            if matching != 1 {
                out.append(SchemaViolation(pointer: pointer, keyword: "oneOf",
                    message: "\(Self.subject(pointer)) must match exactly one of: \(Self.alternatives(one)); it matches \(matching)"))
            }
        }
        if let not = s["not"], check(instance, not, at: pointer, in: scope, depth: depth).isEmpty {
            out.append(SchemaViolation(pointer: pointer, keyword: "not",
                message: "\(Self.subject(pointer)) must not match \(Self.alternatives([not]))"))
        }
        return out
    }

    // MARK: - Helpers for the checks and their messages

    static func matchesType(_ instance: JSONValue, _ type: JSONValue) -> Bool {
        let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
        return names.contains { name in
            switch (name, instance) {
            case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
                ("number", .number):
                return true
            case ("integer", .number(let n)):
                return n.rounded() == n
            default:
                return false
            }
        }
    }

    /// JSON equality where 1 and 1.0 are the same number (they are one `Double` already).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }

    static func typeList(_ type: JSONValue) -> String {
        let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? "?"]
        let phrased = names.map { name -> String in
            switch name {
            case "null": return "null"
            case "integer", "object", "array": return "an \(name)"
            default: return "a \(name)"
            }
        }
        if phrased.count <= 1 { return phrased.first ?? "?" }
        return phrased.dropLast().joined(separator: ", ") + " or " + (phrased.last ?? "")
    }

    static func subject(_ pointer: String) -> String {
        guard let last = JSONPointer.tokens(pointer)?.last else { return "the value" }
        return Int(last) != nil ? "item \(last)" : last
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number: return "the number \(value.serialized())"
        case .string(let s):
            // Only the first 41 characters are counted: counting all of a 64,000-character value cost more than checking it.
            let end = s.index(s.startIndex, offsetBy: 40, limitedBy: s.endIndex) ?? s.endIndex
            let shown = end < s.endIndex ? String(s[..<end]) + "…" : s
            return "the string \(JSONValue.string(shown).serialized())"
        case .array(let a): return "an array of \(a.count) item\(a.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }

    static func alternatives(_ schemas: [JSONValue]) -> String {
        schemas.map { schema -> String in
            if let text = schema["description"]?.stringValue ?? schema["title"]?.stringValue { return text }
            if let ref = schema["$ref"]?.stringValue { return ref }
            let text = schema.serialized()
            return text.count > 60 ? String(text.prefix(60)) + "…" : text
        }.joined(separator: "; ")
    }
}
