import Foundation

/// A schema turned once into a table of checks, so validating an instance walks no schema document: no keyword lookups,
/// no `$ref` resolution and no message pieces rebuilt per request (issue 23).
///
/// It is the `SchemaValidator` in another form and must report exactly what it reports, in the same order, with the
/// same pointers and messages (`CompiledSchemaEquivalenceTests` holds the two together); the interpreted validator stays
/// the definition and serves linting, where schemas are checked once.
public struct CompiledSchema: Sendable {
    /// The checks of every schema reachable from the root; `$ref`s and subschemas point into it by index, so cycles
    /// through `$ref` need no reference types.
    let nodes: [CompiledSchemaNode]
    /// The index of the root schema's node.
    let root: Int

    /// Compiles `schema` with `validator`'s documents for its `$ref`s, as `validator.validate(_:against: schema)` reads it.
    public init(_ schema: JSONValue, validator: SchemaValidator) {
        var compiler = CompiledSchemaCompiler(validator: validator)
        root = compiler.compile(schema, in: SchemaValidator.Scope(key: "", root: schema))
        nodes = compiler.nodes
    }

    /// Every violation of the schema by `instance`, in the interpreted validator's order; [] means valid.
    public func validate(_ instance: JSONValue) -> [SchemaViolation] {
        var out: [SchemaViolation] = []
        check(instance, root, at: "", depth: 0, into: &out)
        return out
    }

    /// Whether `instance` satisfies the schema.
    public func isValid(_ instance: JSONValue) -> Bool {
        var out: [SchemaViolation] = []
        check(instance, root, at: "", depth: 0, into: &out)
        return out.isEmpty
    }

    private func failed(_ instance: JSONValue, _ index: Int, at pointer: String, depth: Int) -> Bool {
        var out: [SchemaViolation] = []
        check(instance, index, at: pointer, depth: depth, into: &out)
        return !out.isEmpty
    }

    func check(_ instance: JSONValue, _ index: Int, at pointer: String, depth: Int, into out: inout [SchemaViolation]) {
        let node = nodes[index]
        switch node.kind {
        case .anything:
            return
        case .nothing:
            out.append(SchemaViolation(pointer: pointer, keyword: "false", message: "no value is allowed here"))
            return
        case .checks:
            break
        }
        switch node.reference {
        case nil:
            break
        case .resolved(let target, let text)?:
            if depth >= SchemaValidator.maximumReferenceDepth {
                out.append(SchemaViolation(pointer: pointer, keyword: "$ref", message: "the reference \(text) loops"))
                return
            }
            check(instance, target, at: pointer, depth: depth + 1, into: &out)
        case .unresolved(let text)?:
            if depth >= SchemaValidator.maximumReferenceDepth {
                out.append(SchemaViolation(pointer: pointer, keyword: "$ref", message: "the reference \(text) loops"))
            } else {
                out.append(SchemaViolation(pointer: pointer, keyword: "$ref", message: "the reference \(text) does not resolve"))
            }
            return
        }
        if let types = node.types, !types.matches(instance) {
            out.append(SchemaViolation(pointer: pointer, keyword: "type",
                message: "\(SchemaValidator.subject(pointer)) must be \(node.typeText), found \(SchemaValidator.describe(instance))"))
            return
        }
        if let options = node.enumOptions, !options.contains(where: { $0 == instance }) {
            out.append(SchemaViolation(pointer: pointer, keyword: "enum",
                message: "\(SchemaValidator.subject(pointer)) must be one of \(node.enumText), found \(SchemaValidator.describe(instance))"))
        }
        if let constant = node.constant, constant != instance {
            out.append(SchemaViolation(pointer: pointer, keyword: "const",
                message: "\(SchemaValidator.subject(pointer)) must be \(node.constantText), found \(SchemaValidator.describe(instance))"))
        }
        switch instance {
        case .string(let text): if let checks = node.string { checks.check(text, at: pointer, into: &out) }
        case .number(let n): if let checks = node.number { checks.check(n, at: pointer, into: &out) }
        case .object(let object): checkObject(object, node, at: pointer, depth: depth, into: &out)
        case .array(let items): checkArray(items, node, at: pointer, depth: depth, into: &out)
        default: break
        }
        if let composition = node.composition { checkComposition(instance, composition, at: pointer, depth: depth, into: &out) }
    }

    private func checkObject(_ object: JSONObject, _ node: CompiledSchemaNode, at pointer: String, depth: Int,
                             into out: inout [SchemaViolation]) {
        switch node.additional {
        case .none:
            break
        case .forbidden:
            for (key, _) in object where !node.propertyNames.contains(key) {
                out.append(SchemaViolation(pointer: JSONPointer.appending(pointer, key), keyword: "additionalProperties",
                    message: "\(key) is not an allowed property"))
            }
        case .schema(let additional):
            for (key, value) in object where !node.propertyNames.contains(key) {
                check(value, additional, at: JSONPointer.appending(pointer, key), depth: depth, into: &out)
            }
        }
        for property in node.properties {
            if let value = object[property.name] {
                check(value, property.node, at: property.pointer(under: pointer), depth: depth, into: &out)
            } else if property.required {
                out.append(SchemaViolation(pointer: property.pointer(under: pointer), keyword: "required",
                    message: "\(property.name) is required"))
            }
        }
        for key in node.requiredElsewhere where object[key] == nil {
            out.append(SchemaViolation(pointer: JSONPointer.appending(pointer, key), keyword: "required", message: "\(key) is required"))
        }
        if let min = node.minProperties, object.count < min {
            out.append(SchemaViolation(pointer: pointer, keyword: "minProperties",
                message: "\(SchemaValidator.subject(pointer)) must have at least \(min) properties, found \(object.count)"))
        }
        if let max = node.maxProperties, object.count > max {
            out.append(SchemaViolation(pointer: pointer, keyword: "maxProperties",
                message: "\(SchemaValidator.subject(pointer)) must have at most \(max) properties, found \(object.count)"))
        }
    }

    private func checkArray(_ items: [JSONValue], _ node: CompiledSchemaNode, at pointer: String, depth: Int,
                            into out: inout [SchemaViolation]) {
        if let min = node.minItems, items.count < min {
            out.append(SchemaViolation(pointer: pointer, keyword: "minItems",
                message: "\(SchemaValidator.subject(pointer)) must have at least \(min) item\(min == 1 ? "" : "s"), found \(items.count)"))
        }
        if let max = node.maxItems, items.count > max {
            out.append(SchemaViolation(pointer: pointer, keyword: "maxItems",
                message: "\(SchemaValidator.subject(pointer)) must have at most \(max) item\(max == 1 ? "" : "s"), found \(items.count)"))
        }
        if let itemNode = node.items {
            for (i, item) in items.enumerated() {
                check(item, itemNode, at: JSONPointer.appending(pointer, i), depth: depth, into: &out)
            }
        }
    }

    private func checkComposition(_ instance: JSONValue, _ c: CompiledSchemaNode.Composition, at pointer: String, depth: Int,
                                  into out: inout [SchemaViolation]) {
        for sub in c.allOf { check(instance, sub, at: pointer, depth: depth, into: &out) }
        if let any = c.anyOf, !any.contains(where: { !failed(instance, $0, at: pointer, depth: depth) }) {
            out.append(SchemaViolation(pointer: pointer, keyword: "anyOf",
                message: "\(SchemaValidator.subject(pointer)) must match at least one of: \(c.anyOfText)"))
        }
        if let one = c.oneOf {
            let matching = one.filter { !failed(instance, $0, at: pointer, depth: depth) }.count
            if matching != 1 {
                out.append(SchemaViolation(pointer: pointer, keyword: "oneOf",
                    message: "\(SchemaValidator.subject(pointer)) must match exactly one of: \(c.oneOfText); it matches \(matching)"))
            }
        }
        if let not = c.not, !failed(instance, not, at: pointer, depth: depth) {
            out.append(SchemaViolation(pointer: pointer, keyword: "not",
                message: "\(SchemaValidator.subject(pointer)) must not match \(c.notText)"))
        }
    }
}
