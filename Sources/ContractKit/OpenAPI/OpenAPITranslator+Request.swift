import Foundation

/// The request side: security schemes as the contract's `auth`, the request body as a JSON body or multipart parts.
extension OpenAPITranslator {
    /// `x-auth` members the folder's `auth` takes besides `scheme` and `header`.
    static let authExtensionKeys = ["header", "credentials", "description", "x-admin", "x-errors", "x-token", "x-empty-is-missing"]

    /// The first security requirement's first scheme as `auth` (an API key in the query becomes a required query
    /// parameter instead, the folder's auth being a header); nil for an open operation.
    mutating func auth(_ operation: JSONObject, context: OperationContext, queryKeys: inout [(String, FoundParameter)]) -> JSONValue? {
        let ownSecurity = operation["security"]
        let security = ownSecurity ?? context.document["security"]
        let securityAt = ownSecurity != nil ? JSONPointer.appending(context.pointer, "security") : "/security"
        let securityFile = ownSecurity != nil ? context.file : context.rootFile
        guard let requirements = security?.arrayValue, let first = requirements.first?.objectValue, let name = first.keys.first else { return nil }
        if requirements.count > 1 || first.count > 1 {
            warnings.append(securityFile.problem(securityAt, "\(context.name): only the first security scheme (\(name)) is checked; the alternatives are not served"))
        }
        let schemesAt = "/components/securitySchemes"
        guard let schemeValue = context.rootFile.value[pointerTokens: JSONPointer.appending(schemesAt, name)],
            let (schemeFile, schemeAt, scheme) = resolveObject(schemeValue, in: context.rootFile, at: JSONPointer.appending(schemesAt, name), what: "security scheme")
        else {
            warnings.append(securityFile.problem(securityAt, "\(context.name): the security scheme \(name) is not among components.securitySchemes; the operation is served without auth"))
            return nil
        }
        var auth = JSONObject()
        switch (scheme["type"]?.stringValue, scheme["scheme"]?.stringValue?.lowercased(), scheme["in"]?.stringValue) {
        case ("http", "basic", _):
            auth["scheme"] = "basic"
        case ("http", "bearer", _):
            auth["scheme"] = "bearer"
        case ("apiKey", _, "header"):
            auth["scheme"] = "apiKey"
            auth["header"] = scheme["name"] ?? "Authorization"
        case ("apiKey", _, "query"):
            let key = scheme["name"]?.stringValue ?? name
            warnings.append(schemeFile.problem(schemeAt, "\(context.name): an API key in the query (\(key)) is checked as a required query parameter, not as auth"))
            if !queryKeys.contains(where: { $0.0 == key }) {
                queryKeys.append((key, FoundParameter(value: ["required": true, "schema": ["type": "string", "minLength": 1]], file: schemeFile, at: schemeAt)))
            }
            return nil
        case ("oauth2", _, _), ("openIdConnect", _, _):
            warnings.append(schemeFile.problem(schemeAt, "\(context.name): \(scheme["type"]?.stringValue ?? "") is checked as a bearer token (its flows are not served)"))
            auth["scheme"] = "bearer"
        default:
            warnings.append(schemeFile.problem(schemeAt, "\(context.name): this security scheme (\(scheme["type"]?.stringValue ?? "no type")) is not one SpotCheck checks (HTTP Basic, bearer, an API key in a header or the query); the operation is served without auth"))
            return nil
        }
        for (k, v) in operation["x-auth"]?.objectValue ?? JSONObject() where Self.authExtensionKeys.contains(k) { auth[k] = v }
        return .object(auth)
    }

    /// The request body: its media type, JSON schema or multipart parts, size limits and named examples.
    mutating func requestBody(_ value: JSONValue, into request: inout JSONObject, key: String, context: OperationContext, at pointer: String) {
        guard let (file, at, body) = resolveObject(value, in: context.file, at: pointer, what: "request body"),
            case .object(let content)? = body["content"], !content.isEmpty else { return }
        let types = content.keys
        let chosen = types.first { ContractLoader.isJSON(Self.mediaType($0)) } ?? types.first { Self.mediaType($0) == "multipart/form-data" } ?? types[0]
        if types.count > 1 {
            warnings.append(context.problem(JSONPointer.appending(at, "content"),
                "the request body is checked as \(chosen) only; \(types.filter { $0 != chosen }.joined(separator: ", ")) are accepted unchecked"))
        }
        let mediaAt = JSONPointer.appending(JSONPointer.appending(at, "content"), chosen)
        let media = content[chosen]?.objectValue ?? JSONObject()
        let type = Self.mediaType(chosen)
        request["contentType"] = .string(type)
        if let max = body["x-maxBodyBytes"] { request["maxBodyBytes"] = max }
        if ContractLoader.isJSON(type) {
            if let s = media["schema"] {
                request["body"] = schema(s, file: file, at: JSONPointer.appending(mediaAt, "schema"), dialect: context.dialect, inSchemasFolder: false)
                map(key, "/request/body", file: file, at: JSONPointer.appending(mediaAt, "schema"))
            }
            let examples = self.examples(media, file: file, at: mediaAt, context: context).map { found -> JSONValue in
                var e: JSONObject = ["name": .string(found.name)]
                if let s = found.summary { e["summary"] = .string(s) }
                e["body"] = found.value ?? .null
                return .object(e)
            }
            if !examples.isEmpty, request["body"] != nil {
                request["examples"] = .array(examples)
                for (i, found) in self.examples(media, file: file, at: mediaAt, context: context, quiet: true).enumerated() {
                    map(key, JSONPointer.appending("/request/examples", i), file: found.file, at: found.at)
                }
            }
        } else if type == "multipart/form-data" {
            multipart(media, into: &request, file: file, at: mediaAt, context: context)
        } else {
            warnings.append(context.problem(mediaAt, "a \(type) body is accepted unchecked (SpotCheck checks JSON and multipart bodies)"))
        }
    }

    static func mediaType(_ text: String) -> String {
        String(text.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Multipart parts from the schema's properties: a binary (or `contentMediaType`) property is a file part.
    mutating func multipart(_ media: JSONObject, into request: inout JSONObject, file: OpenAPISourceFile, at mediaAt: String, context: OperationContext) {
        guard let s = media["schema"], let (sFile, sAt, object) = resolveObject(s, in: file, at: JSONPointer.appending(mediaAt, "schema"), what: "schema"),
            case .object(let properties)? = object["properties"] else {
            warnings.append(context.problem(mediaAt, "the multipart body has no object schema with properties; its parts are not checked"))
            return
        }
        let required = Set((object["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var parts = JSONObject()
        for (name, value) in properties {
            let propertyAt = JSONPointer.appending(JSONPointer.appending(sAt, "properties"), name)
            let resolved = resolveObject(value, in: sFile, at: propertyAt, what: "schema")?.2 ?? JSONObject()
            var property = resolved
            if property["type"]?.stringValue == "array", let items = property["items"]?.objectValue {
                warnings.append(context.problem(propertyAt, "the part \(name) is a list; SpotCheck checks one part of that name"))
                property = items
            }
            let isFile = property["format"]?.stringValue == "binary" || property["format"]?.stringValue == "base64"
                || property["contentMediaType"] != nil || property["contentEncoding"] != nil
            var part: JSONObject = ["required": .bool(required.contains(name)), "kind": isFile ? "file" : "text"]
            if let d = property["description"] { part["description"] = d }
            parts[name] = .object(part)
            if isFile, let max = property["x-maxFileBytes"] { request["maxFileBytes"] = max }
        }
        for (name, encoding) in media["encoding"]?.objectValue ?? JSONObject() {
            let encodingAt = JSONPointer.appending(JSONPointer.appending(mediaAt, "encoding"), name)
            let contentTypes = (encoding["contentType"]?.stringValue ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let known = contentTypes.allSatisfy { $0.split(separator: "/").count == 2 }
            if !known || encoding["headers"] != nil || encoding["style"] != nil || encoding["explode"] != nil {
                warnings.append(context.problem(encodingAt, "the multipart encoding of \(name) is not one SpotCheck knows (headers, style or an unreadable content type); the part is checked by name and kind only"))
            }
        }
        request["parts"] = .object(parts)
    }

    /// A named example and where it is written.
    struct FoundExample {
        let name: String
        let summary: String?
        let value: JSONValue?
        let extensions: JSONObject
        let file: OpenAPISourceFile
        let at: String
    }

    /// A media type's named examples (`examples`, `$ref`s to components followed) or its single `example`.
    mutating func examples(_ media: JSONObject, file: OpenAPISourceFile, at mediaAt: String, context: OperationContext, quiet: Bool = false) -> [FoundExample] {
        var out: [FoundExample] = []
        let saved = warnings
        for (key, value) in media["examples"]?.objectValue ?? JSONObject() {
            let at = JSONPointer.appending(JSONPointer.appending(mediaAt, "examples"), key)
            guard let (eFile, eAt, example) = resolveObject(value, in: file, at: at, what: "example") else { continue }
            if example["value"] == nil, example["externalValue"] != nil {
                warnings.append(context.problem(eAt, "the example \(key) gives an externalValue, which SpotCheck does not fetch; not served"))
                continue
            }
            var extensions = JSONObject()
            for (k, v) in example where k.hasPrefix("x-") { extensions[k] = v }
            out.append(FoundExample(name: example["x-name"]?.stringValue ?? key, summary: example["summary"]?.stringValue,
                                    value: example["value"], extensions: extensions, file: eFile, at: eAt))
        }
        if out.isEmpty, let single = media["example"] {
            out.append(FoundExample(name: "example", summary: nil, value: single, extensions: JSONObject(), file: file,
                                    at: JSONPointer.appending(mediaAt, "example")))
        }
        if quiet { warnings = saved }
        return out
    }
}
