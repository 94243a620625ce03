import Foundation

/// Builds a `CompiledSchema`'s nodes from schema documents, reading every keyword as `SchemaValidator.check` does.
struct CompiledSchemaCompiler {
    let validator: SchemaValidator
    private(set) var nodes: [CompiledSchemaNode] = []
    /// The node of each `$ref` target already compiled, by referring document and reference: a cycle through `$ref`
    /// ends at a node being built.
    private var targets: [String: Int] = [:]

    init(validator: SchemaValidator) {
        self.validator = validator
    }

    /// The index of the node for `schema`, read in `scope` (the document its "#/..." references resolve in).
    mutating func compile(_ schema: JSONValue, in scope: SchemaValidator.Scope) -> Int {
        let index = nodes.count
        nodes.append(CompiledSchemaNode())
        nodes[index] = node(for: schema, in: scope)
        return index
    }

    private mutating func node(for schema: JSONValue, in scope: SchemaValidator.Scope) -> CompiledSchemaNode {
        let node = CompiledSchemaNode()
        if case .bool(let allowed) = schema {
            node.kind = allowed ? .anything : .nothing
            return node
        }
        guard case .object(let s) = schema else {
            node.kind = .anything
            return node
        }
        if case .string(let ref)? = s["$ref"] {
            node.reference = reference(ref, in: scope)
            if case .unresolved = node.reference { return node }
        }
        if let type = s["type"] {
            node.types = JSONTypeSet(typeKeyword: type)
            node.typeText = SchemaValidator.typeList(type)
        }
        if let options = s["enum"]?.arrayValue {
            node.enumOptions = options
            node.enumText = options.map { $0.serialized() }.joined(separator: ", ")
        }
        if let constant = s["const"] {
            node.constant = constant
            node.constantText = constant.serialized()
        }
        let string = CompiledStringChecks(keywords: s, keep: true)
        if !string.isEmpty { node.string = string }
        let number = CompiledNumberChecks(keywords: s)
        if !number.isEmpty { node.number = number }
        compileObjectKeywords(s, into: node, in: scope)
        node.minItems = s["minItems"]?.intValue
        node.maxItems = s["maxItems"]?.intValue
        if let items = s["items"] { node.items = compile(items, in: scope) }
        node.composition = composition(s, in: scope)
        return node
    }

    private mutating func reference(_ ref: String, in scope: SchemaValidator.Scope) -> CompiledSchemaNode.Reference {
        let key = scope.key + "\u{0}" + ref
        if let known = targets[key] { return .resolved(known, text: ref) }
        guard let (target, targetScope) = validator.resolve(ref, in: scope) else { return .unresolved(ref) }
        // Reserve the target's index before compiling it, so a reference back to it inside ends here.
        let index = nodes.count
        nodes.append(CompiledSchemaNode())
        targets[key] = index
        nodes[index] = node(for: target, in: targetScope)
        return .resolved(index, text: ref)
    }

    private mutating func compileObjectKeywords(_ s: JSONObject, into node: CompiledSchemaNode, in scope: SchemaValidator.Scope) {
        let properties = s["properties"]?.objectValue ?? JSONObject()
        let required = (s["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        node.propertyNames = Set(properties.keys)
        if let additional = s["additionalProperties"] {
            node.additional = additional == .bool(false) ? .forbidden : .schema(compile(additional, in: scope))
        }
        for (name, schema) in properties {
            node.properties.append(.init(name: name, node: compile(schema, in: scope), required: required.contains(name)))
        }
        node.requiredElsewhere = required.filter { properties[$0] == nil }
        node.minProperties = s["minProperties"]?.intValue
        node.maxProperties = s["maxProperties"]?.intValue
    }

    private mutating func composition(_ s: JSONObject, in scope: SchemaValidator.Scope) -> CompiledSchemaNode.Composition? {
        var c = CompiledSchemaNode.Composition()
        var any = false
        if let all = s["allOf"]?.arrayValue {
            c.allOf = all.map { compile($0, in: scope) }
            any = true
        }
        if let options = s["anyOf"]?.arrayValue {
            c.anyOf = options.map { compile($0, in: scope) }
            c.anyOfText = SchemaValidator.alternatives(options)
            any = true
        }
        if let options = s["oneOf"]?.arrayValue {
            c.oneOf = options.map { compile($0, in: scope) }
            c.oneOfText = SchemaValidator.alternatives(options)
            any = true
        }
        if let not = s["not"] {
            c.not = compile(not, in: scope)
            c.notText = SchemaValidator.alternatives([not])
            any = true
        }
        return any ? c : nil
    }
}
