import Foundation

/// Schema-to-schema comparison for `ContractDiff`. A request schema breaks clients when it accepts
/// less than before; a response schema breaks them when it allows more than before.
extension ContractDiff {
    static func describe(_ auth: AuthRequirement) -> String {
        auth.scheme == "apiKey" ? "an API key in \(auth.header)" : auth.scheme.capitalized
    }

    /// The keywords of `schema` with `$ref`s followed and `allOf` merged, so that two spellings of the same schema compare equal.
    static func effective(_ schema: JSONValue, _ validator: SchemaValidator, depth: Int = 0) -> JSONObject {
        guard case .object(var object) = schema, depth < 32 else { return JSONObject() }
        var merged = JSONObject()
        if case .string(let ref)? = object["$ref"],
            let (target, _) = validator.resolve(ref, in: SchemaValidator.Scope(key: "", root: schema))
        {
            merged = effective(target, validator, depth: depth + 1)
        }
        let parts = object["allOf"]?.arrayValue ?? []
        object["$ref"] = nil
        object["allOf"] = nil
        merged = merge(merged, object)
        for part in parts { merged = merge(merged, effective(part, validator, depth: depth + 1)) }
        return merged
    }

    static func merge(_ a: JSONObject, _ b: JSONObject) -> JSONObject {
        var out = a
        for (key, value) in b {
            guard let existing = out[key] else {
                out[key] = value
                continue
            }
            switch key {
            case "properties":
                var properties = existing.objectValue ?? JSONObject()
                for (name, schema) in value.objectValue ?? JSONObject() {
                    properties[name] = properties[name].map { ["allOf": [$0, schema]] } ?? schema
                }
                out[key] = .object(properties)
            case "required":
                var names = existing.arrayValue ?? []
                for name in value.arrayValue ?? [] where !names.contains(name) { names.append(name) }
                out[key] = .array(names)
            case "type":
                let x = typeSet(existing) ?? [], y = typeSet(value) ?? []
                let both = x.filter { allows(y, $0) } + y.filter { $0 == "integer" && x.contains("number") && !x.contains("integer") }
                out[key] = .array(both.map { .string($0) })
            default:
                continue  // the first definition wins
            }
        }
        return out
    }

    static func typeSet(_ type: JSONValue?) -> [String]? {
        guard let type else { return nil }
        return type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
    }

    static func allows(_ set: [String]?, _ type: String) -> Bool {
        guard let set else { return true }
        return set.contains(type) || (type == "integer" && set.contains("number"))
    }

    static func enumSet(_ s: JSONObject) -> [JSONValue]? {
        if let values = s["enum"]?.arrayValue { return values }
        if let constant = s["const"] { return [constant] }
        return nil
    }

    static func name(_ site: Site) -> String {
        guard let tokens = JSONPointer.tokens(site.pointer) else { return "the value" }
        let meaningful = tokens.filter { !["properties", "schema", "body", "items"].contains($0) }
        return meaningful.last.map { Int($0) == nil ? $0 : "the value" } ?? "the value"
    }

    mutating func compareSchema(_ a: JSONValue, _ va: SchemaValidator, _ b: JSONValue, _ vb: SchemaValidator, _ site: Site, depth: Int) {
        guard depth < 32 else { return }
        let x = Self.effective(a, va), y = Self.effective(b, vb)
        let side = site.isRequest ? "request" : "response"
        let field = Self.name(site)
        let request = site.isRequest

        // Types.
        let oldTypes = Self.typeSet(x["type"]), newTypes = Self.typeSet(y["type"])
        let everything = ["null", "boolean", "object", "array", "number", "string"]
        let added = (newTypes ?? everything).filter { !Self.allows(oldTypes, $0) }
        let removed = (oldTypes ?? everything).filter { !Self.allows(newTypes, $0) }
        let oldText = oldTypes?.joined(separator: " or ") ?? "any type"
        let newText = newTypes?.joined(separator: " or ") ?? "any type"
        if request {
            if !removed.isEmpty {
                record(.breaking, .typeChanged, site.at("type"), "the \(side) field \(field) no longer accepts \(removed.joined(separator: " or ")) (was \(oldText), now \(newText))")
            } else if !added.isEmpty {
                record(.compatible, .typeWidened, site.at("type"), "the \(side) field \(field) now also accepts \(added.joined(separator: " or "))")
            }
        } else {
            if added == ["null"] {
                record(.breaking, .responseFieldNullable, site.at("type"), "the \(side) field \(field) may now be null (was \(oldText))")
            } else if !added.isEmpty {
                record(.breaking, .typeChanged, site.at("type"), "the \(side) field \(field) changed type from \(oldText) to \(newText)")
            } else if !removed.isEmpty {
                record(.compatible, .typeNarrowed, site.at("type"), "the \(side) field \(field) is no longer \(removed.joined(separator: " or "))")
            }
        }

        // Enumerations.
        let oldValues = Self.enumSet(x), newValues = Self.enumSet(y)
        switch (oldValues, newValues) {
        case (nil, let values?):
            let list = values.map { $0.serialized() }.joined(separator: ", ")
            if request { record(.breaking, .enumNarrowed, site.at("enum"), "the \(side) field \(field) is now limited to \(list)") }
            else { record(.compatible, .enumNarrowed, site.at("enum"), "the \(side) field \(field) is now limited to \(list)") }
        case (let values?, nil):
            let list = values.map { $0.serialized() }.joined(separator: ", ")
            if request { record(.compatible, .enumWidened, site.at("enum"), "the \(side) field \(field) is no longer limited to \(list)") }
            else { record(.breaking, .enumWidened, site.at("enum"), "the \(side) field \(field) is no longer limited to \(list)") }
        case (let before?, let after?):
            let gone = before.filter { !after.contains($0) }.map { $0.serialized() }
            let new = after.filter { !before.contains($0) }.map { $0.serialized() }
            if !gone.isEmpty {
                record(request ? .breaking : .compatible, .enumNarrowed, site.at("enum"),
                       "the \(side) field \(field) no longer allows \(gone.joined(separator: ", "))")
            }
            if !new.isEmpty {
                record(request ? .compatible : .breaking, .enumWidened, site.at("enum"),
                       "the \(side) field \(field) now also allows \(new.joined(separator: ", "))")
            }
        case (nil, nil):
            break
        }

        // Limits.
        for keyword in ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] {
            compareBound(keyword, x[keyword]?.numberValue, y[keyword]?.numberValue, lower: true, site, field: field)
        }
        for keyword in ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] {
            compareBound(keyword, x[keyword]?.numberValue, y[keyword]?.numberValue, lower: false, site, field: field)
        }
        for keyword in ["pattern", "format"] where x[keyword] != y[keyword] {
            let before = x[keyword]?.stringValue, after = y[keyword]?.stringValue
            let message = "the \(side) field \(field) \(keyword) changed from \(before ?? "none") to \(after ?? "none")"
            switch (before, after) {
            case (nil, _):  // added: fewer values are valid
                record(request ? .breaking : .compatible, .limitTightened, site.at(keyword), message)
            case (_, nil):  // removed: more values are valid
                record(request ? .compatible : .breaking, .limitWidened, site.at(keyword), message)
            default:  // replaced: neither side contains the other in general
                record(.breaking, request ? .limitTightened : .limitWidened, site.at(keyword), message)
            }
        }
        if request, x["additionalProperties"] != .bool(false), y["additionalProperties"] == .bool(false) {
            record(.breaking, .limitTightened, site.at("additionalProperties"), "the \(side) object \(field) now rejects unknown properties")
        }

        // Object members.
        let oldProperties = x["properties"]?.objectValue ?? JSONObject()
        let newProperties = y["properties"]?.objectValue ?? JSONObject()
        let oldRequired = Set((x["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let newRequired = Set((y["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for (key, schema) in newProperties {
            let child = site.at("properties").at(key)
            guard let before = oldProperties[key] else {
                if request {
                    let required = newRequired.contains(key)
                    record(required ? .breaking : .compatible, required ? .requestFieldAddedRequired : .requestFieldAddedOptional, child,
                           "the \(required ? "required" : "optional") request field \(key) was added")
                } else {
                    record(.compatible, .responseFieldAdded, child, "the response field \(key) was added")
                }
                continue
            }
            if request {
                if newRequired.contains(key) && !oldRequired.contains(key) {
                    record(.breaking, .requestFieldMadeRequired, child, "the request field \(key) is now required")
                } else if !newRequired.contains(key) && oldRequired.contains(key) {
                    record(.compatible, .requestFieldMadeOptional, child, "the request field \(key) is now optional")
                }
            } else if oldRequired.contains(key) && !newRequired.contains(key) {
                record(.breaking, .responseFieldOptional, child, "the response field \(key) may now be absent")
            }
            compareSchema(before, va, schema, vb, child, depth: depth + 1)
        }
        for (key, _) in oldProperties where newProperties[key] == nil {
            let child = site.at("properties").at(key)
            if request {
                let rejected = y["additionalProperties"] == .bool(false)
                record(rejected ? .breaking : .compatible, .requestFieldRemoved, child,
                       rejected ? "the request field \(key) was removed and is now rejected as unknown" : "the request field \(key) was removed; the server ignores it")
            } else {
                record(.breaking, .responseFieldRemoved, child, "the response field \(key) was removed")
            }
        }

        // Array items and the composition keywords that cannot be merged.
        if let before = x["items"], let after = y["items"] {
            compareSchema(before, va, after, vb, site.at("items"), depth: depth + 1)
        }
        for keyword in ["anyOf", "oneOf", "not"] where x[keyword] != y[keyword] {
            record(.breaking, .schemaChanged, site.at(keyword),
                   "the \(side) field \(field) changed its \(keyword) rule; review it by hand (treated as breaking)")
        }
    }

    mutating func compareBound(_ keyword: String, _ a: Double?, _ b: Double?, lower: Bool, _ site: Site, field: String) {
        guard a != b else { return }
        let tightened: Bool
        switch (a, b) {
        case (nil, _?): tightened = true
        case (_?, nil): tightened = false
        case (let x?, let y?): tightened = lower ? y > x : y < x
        default: return
        }
        let show = { (n: Double?) in n.map { JSONValue.number($0).serialized() } ?? "none" }
        let side = site.isRequest ? "request" : "response"
        let message = "the \(side) field \(field) \(keyword) \(tightened ? "tightened" : "widened") from \(show(a)) to \(show(b))"
        if site.isRequest {
            record(tightened ? .breaking : .compatible, tightened ? .limitTightened : .limitWidened, site.at(keyword), message)
        } else {
            record(tightened ? .compatible : .breaking, tightened ? .limitTightened : .limitWidened, site.at(keyword), message)
        }
    }
}
