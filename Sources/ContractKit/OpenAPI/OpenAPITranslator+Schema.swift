import Foundation

/// Schemas: OpenAPI 3.0's schema object or 3.1's JSON Schema 2020-12, written into the project's dialect (the keywords
/// `contracts/README.md` lists), with `$ref`s to shared schemas turned into files under `schemas/`.
extension OpenAPITranslator {
    /// Keywords that only describe; dropped quietly (the folder dialect has no use for them and lint would refuse them).
    static let droppedAnnotations: Set<String> = ["example", "discriminator", "xml", "externalDocs", "contentMediaType", "contentEncoding", "$anchor", "$dynamicAnchor"]

    /// `schema` (found at `pointer` of `file`) in the folder's dialect. `inSchemasFolder`: the result is written under
    /// `schemas/`, so a shared schema is referred to as `Name.json`, else as `schemas/Name.json`.
    mutating func schema(_ schema: JSONValue, file: OpenAPISourceFile, at pointer: String, dialect: Dialect,
                         inSchemasFolder: Bool, depth: Int = 0) -> JSONValue {
        guard case .object(let object) = schema else { return schema }
        guard depth < 64 else { return .object(JSONObject()) }
        if let ref = object["$ref"]?.stringValue {
            let converted = reference(ref, file: file, at: JSONPointer.appending(pointer, "$ref"), dialect: dialect, inSchemasFolder: inSchemasFolder)
            // OpenAPI 3.0 ignores a $ref's siblings; 3.1 (JSON Schema 2020-12) applies them too.
            if dialect == .openAPI30 || object.count == 1 { return converted }
            var rest = object
            rest["$ref"] = nil
            let siblings = self.schema(.object(rest), file: file, at: pointer, dialect: dialect, inSchemasFolder: inSchemasFolder, depth: depth + 1)
            return ["allOf": [converted, siblings]]
        }
        var out = JSONObject()
        for (key, value) in object {
            let at = JSONPointer.appending(pointer, key)
            switch key {
            case "nullable" where dialect == .openAPI30, "$schema":
                continue
            case "exclusiveMinimum" where dialect == .openAPI30, "exclusiveMaximum" where dialect == .openAPI30:
                // 3.0: a boolean beside minimum/maximum; handled with that bound below.
                if value.boolValue == nil { out[key] = value }
            case "minimum" where dialect == .openAPI30 && object["exclusiveMinimum"] == .bool(true):
                out["exclusiveMinimum"] = value
            case "maximum" where dialect == .openAPI30 && object["exclusiveMaximum"] == .bool(true):
                out["exclusiveMaximum"] = value
            case "properties", "$defs", "definitions", "patternProperties":
                guard key != "patternProperties" else {
                    warnings.append(file.problem(at, "patternProperties is not checked by SpotCheck; left out"))
                    continue
                }
                var members = JSONObject()
                for (name, child) in value.objectValue ?? JSONObject() {
                    members[name] = self.schema(child, file: file, at: JSONPointer.appending(at, name), dialect: dialect,
                                                inSchemasFolder: inSchemasFolder, depth: depth + 1)
                }
                out[key] = .object(members)
            case "items":
                if case .array = value {
                    warnings.append(file.problem(at, "items as a list (tuple validation) is not checked by SpotCheck; left out"))
                    continue
                }
                out[key] = self.schema(value, file: file, at: at, dialect: dialect, inSchemasFolder: inSchemasFolder, depth: depth + 1)
            case "additionalProperties", "not":
                out[key] = self.schema(value, file: file, at: at, dialect: dialect, inSchemasFolder: inSchemasFolder, depth: depth + 1)
            case "allOf", "anyOf", "oneOf":
                let items = (value.arrayValue ?? []).enumerated().map { i, item in
                    self.schema(item, file: file, at: JSONPointer.appending(at, i), dialect: dialect, inSchemasFolder: inSchemasFolder, depth: depth + 1)
                }
                out[key] = .array(items)
            case "format":
                // Only the formats the validator asserts are kept; others (int32, binary, uri, …) describe and are dropped.
                if let name = value.stringValue, SchemaFormat(rawValue: name) != nil { out[key] = value }
            case "required":
                out[key] = value
                checkRequired(value, properties: object["properties"], file: file, at: at, pointer: pointer)
            default:
                if key.hasPrefix("x-") || SchemaLinter.assertions.contains(key) || SchemaLinter.annotations.contains(key) {
                    out[key] = value
                } else if !Self.droppedAnnotations.contains(key) {
                    warnings.append(file.problem(at, "the schema keyword \(key) is not checked by SpotCheck; left out"))
                }
            }
        }
        if dialect == .openAPI30, object["nullable"] == .bool(true) { Self.allowNull(&out) }
        return .object(out)
    }

    /// 3.0's `nullable: true`: `null` joins the type (and the enum, which would otherwise still refuse it).
    static func allowNull(_ schema: inout JSONObject) {
        switch schema["type"] {
        case .string(let name): schema["type"] = [.string(name), "null"]
        case .array(let names) where !names.contains("null"): schema["type"] = .array(names + ["null"])
        default: break
        }
        if case .array(let values) = schema["enum"], !values.contains(.null) { schema["enum"] = .array(values + [.null]) }
    }

    /// A required name that `properties` does not list contradicts the schema when it lists properties: a warning at both.
    mutating func checkRequired(_ required: JSONValue, properties: JSONValue?, file: OpenAPISourceFile, at: String, pointer: String) {
        guard case .object(let listed)? = properties, let names = required.arrayValue else { return }
        for (i, name) in names.enumerated() {
            guard let name = name.stringValue, listed[name] == nil else { continue }
            let other = file.position(of: JSONPointer.appending(pointer, "properties"))
            let place = other.map { "\(file.display):\($0.line):\($0.column)" } ?? file.display
            warnings.append(file.problem(JSONPointer.appending(at, i),
                "\(name) is required but not among the properties (\(place) \(JSONPointer.appending(pointer, "properties"))); any value of it is accepted"))
        }
    }

    /// A schema `$ref`: a shared schema file for its target (translated once), referred to relative to where it is used.
    mutating func reference(_ ref: String, file: OpenAPISourceFile, at pointer: String, dialect: Dialect, inSchemasFolder: Bool) -> JSONValue {
        guard let location = OpenAPIReference.target(ref, in: file.url) else {
            warnings.append(file.problem(pointer, "the $ref \"\(ref)\" names a remote document, which SpotCheck does not fetch; any value is accepted there"))
            return .object(JSONObject())
        }
        guard let target = fileSet.file(location.url), JSONPointer.resolve(location.pointer, in: target.value) != nil else {
            _ = resolve(ref, from: file, at: pointer)  // the warning naming both places
            return .object(JSONObject())
        }
        // `#/components/schemas/Name/properties/x` names a part of the shared schema Name.
        var base = location
        var fragment = ""
        if let tokens = JSONPointer.tokens(location.pointer), tokens.count > 3, tokens[0] == "components", tokens[1] == "schemas" {
            base = OpenAPILocation(url: location.url, pointer: "/components/schemas/" + Self.escape(tokens[2]))
            fragment = tokens.dropFirst(3).reduce("") { JSONPointer.appending($0, $1) }
        }
        let name = schemaName(for: base, dialect: dialect)
        let path = (inSchemasFolder ? "" : "schemas/") + name + ".json" + (fragment.isEmpty ? "" : "#" + fragment)
        return ["$ref": .string(path)]
    }

    static func escape(_ token: String) -> String {
        JSONPointer.appending("", token).dropFirst().description
    }

    /// The shared schema name of a place, registered (and queued for translation) on first use.
    mutating func schemaName(for location: OpenAPILocation, dialect: Dialect) -> String {
        if let name = schemaNames[location] { return name }
        let tokens = JSONPointer.tokens(location.pointer) ?? []
        var stem: String
        if tokens.count == 3, tokens[0] == "components", tokens[1] == "schemas" {
            stem = tokens[2]
        } else {
            stem = ([location.url.deletingPathExtension().lastPathComponent] + tokens.filter { $0 != "components" && $0 != "schemas" })
                .joined(separator: "-")
        }
        stem = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        if stem.isEmpty { stem = "Schema" }
        var name = stem
        var n = 2
        while takenSchemaNames.contains(name.lowercased()) {
            name = "\(stem)-\(n)"
            n += 1
        }
        takenSchemaNames.insert(name.lowercased())
        schemaNames[location] = name
        pendingSchemas.append((location, dialect))
        return name
    }

    /// Writes one shared schema file.
    mutating func translateNamedSchema(_ location: OpenAPILocation, dialect: Dialect) {
        guard let name = schemaNames[location], let file = fileSet.file(location.url),
            let value = JSONPointer.resolve(location.pointer, in: file.value) else { return }
        // A schema in another document is read by that document's own version.
        let ownDialect = Self.dialect(of: file) ?? dialect
        let translated = schema(value, file: file, at: location.pointer, dialect: ownDialect, inSchemasFolder: true)
        emit("schemas/\(name).json", translated, file: file, at: location.pointer)
    }

    /// The dialect a file declares by its `openapi` member; nil for a bare schema file.
    static func dialect(of file: OpenAPISourceFile) -> Dialect? {
        guard let version = file.value["openapi"]?.stringValue else { return nil }
        return version.hasPrefix("3.0.") ? .openAPI30 : .jsonSchema2020
    }
}
