import Foundation

/// Translates a contract set into an OpenAPI 3.1 document: every endpoint, shared schema (as
/// components), response, header and example. Bodies are already JSON Schema 2020-12, which is
/// OpenAPI 3.1's schema dialect, so the translation only rewrites `$ref`s to components.
///
/// Everything else a contract folder states rides along as `x-` extensions (docs/openapi.md lists them), so importing
/// the document (`serve --contracts exported.yaml`, `import openapi`) gives a folder that answers exactly the same:
/// `service.json`, `known-defects.json` and the fixtures at the document's root, `x-state`, `x-also-at`, `x-auth` and
/// `x-file` on the operation, the responses sharing a status in `x-responses`, and each example's name, error code,
/// request and headers.
public struct OpenAPIExporter {
    /// The contracts to export.
    public let contracts: ContractSet
    /// `info.title` of the document.
    public var title = "API exported by SpotCheck"
    /// `info.version` of the document.
    public var version = "1.0.0"
    /// The server URL listed in `servers`.
    public var serverURL = "http://localhost:3000"

    /// An exporter for `contracts`.
    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    /// The OpenAPI document as a JSON value (keys in a readable order).
    public func document() -> JSONValue {
        var paths = JSONObject()
        var securitySchemes = JSONObject()
        for contract in contracts.contracts {
            var item = paths[contract.pathTemplate]?.objectValue ?? JSONObject()
            item[contract.method.lowercased()] = operation(contract, securitySchemes: &securitySchemes)
            paths[contract.pathTemplate] = .object(item)
        }
        var schemas = JSONObject()
        for name in contracts.schemas.keys.sorted() {
            if let schema = contracts.schemas[name] { schemas[name] = translate(schema, depth: 0) }
        }
        var components: JSONObject = ["schemas": .object(schemas)]
        if !securitySchemes.isEmpty { components["securitySchemes"] = .object(securitySchemes) }
        var document: JSONObject = [
            "openapi": "3.1.0",
            "info": [
                "title": .string(title), "version": .string(version),
                "description": "Exported by spotcheck from the JSON contracts in contracts/. Every non-2xx answer carries the ErrorEnvelope; x-spotcheck-codes lists the error codes a status stands for.",
            ],
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "servers": [["url": .string(serverURL)]],
            "paths": .object(paths),
            "components": .object(components),
        ]
        for (key, value) in folderExtensions() { document[key] = value }
        return .object(document)
    }

    /// `service.json`, `known-defects.json` and `fixtures/*.json` of the folder, as they are written.
    func folderExtensions() -> JSONObject {
        var out = JSONObject()
        let directory = contracts.directory
        func read(_ key: String) -> JSONValue? {
            (try? Data(contentsOf: directory.appendingPathComponent(key))).flatMap { try? JSONValue(parsing: $0) }
        }
        if let service = read(ServiceFile.fileName) { out["x-service"] = service }
        if let defects = read(KnownDefect.fileName) { out["x-known-defects"] = defects }
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("fixtures").path)) ?? []
        var members = JSONObject()
        for name in fixtures.sorted() where name.hasSuffix(".json") {
            if let value = read("fixtures/" + name) { members[name] = value }
        }
        if !members.isEmpty { out["x-fixtures"] = .object(members) }
        return out
    }

    /// The document as pretty-printed JSON text.
    public func render() -> String {
        Self.escapingControlCharacters(document().serialized(pretty: true)) + "\n"
    }

    /// `json` with DEL and the C1 control characters (U+007F–U+009F) escaped as `\u00XX`: JSON allows them raw, but a
    /// YAML reader (most OpenAPI tools read JSON as YAML) refuses them. They occur only inside strings, so the text
    /// means the same; the mock's own answers keep them raw, as `JSON.stringify` does.
    static func escapingControlCharacters(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                result.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    func operation(_ contract: Contract, securitySchemes: inout JSONObject) -> JSONValue {
        var op: JSONObject = ["operationId": .string(contract.id), "summary": .string(contract.summary)]
        op["x-file"] = .string(contract.file.lastPathComponent)
        var parameters: [JSONValue] = []
        let source = contract.source
        for p in contract.pathParameters {
            parameters.append(parameter(p, in: "path", required: true, source: source["pathParameters"]?[p.name]))
        }
        for p in contract.request.query {
            parameters.append(parameter(p, in: "query", required: p.required, source: source["request"]?["query"]?[p.name]))
        }
        for p in contract.request.headers {
            parameters.append(parameter(p, in: "header", required: p.required, source: source["request"]?["headers"]?[p.name]))
        }
        if !parameters.isEmpty { op["parameters"] = .array(parameters) }
        if let body = requestBody(contract.request) { op["requestBody"] = body }
        if let auth = contract.request.auth {
            let (name, scheme) = securityScheme(auth)
            securitySchemes[name] = scheme
            op["security"] = [.object([name: []])]
            // The auth checks' answers are per operation; the shared security scheme cannot carry them.
            var checks = JSONObject()
            for key in ["header", "credentials", "description", "x-admin", "x-errors", "x-token", "x-empty-is-missing"] {
                if let value = contract.source["request"]?["auth"]?[key] { checks[key] = value }
            }
            if !checks.isEmpty { op["x-auth"] = .object(checks) }
        }
        if let state = contract.source["x-state"] { op["x-state"] = state }
        if let mounts = contract.source["x-also-at"] { op["x-also-at"] = mounts }
        var responses = JSONObject()
        for status in orderedStatuses(contract.responses) {
            let group = contract.responses.filter { $0.status == status }
            responses[String(status)] = response(group, contract: contract)
        }
        op["responses"] = .object(responses)
        return .object(op)
    }

    func orderedStatuses(_ responses: [ResponseSpec]) -> [Int] {
        var seen: [Int] = []
        for r in responses where !seen.contains(r.status) { seen.append(r.status) }
        return seen
    }

    func parameter(_ p: ParameterSpec, in location: String, required: Bool, source: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = ["name": .string(p.name), "in": .string(location), "required": .bool(required)]
        if let description = p.description { object["description"] = .string(description) }
        object["schema"] = translate(p.schema, depth: 0)
        // The parameter's rules (x-errors, x-parse, x-requires) stay on the parameter, where the contract has them.
        for (key, value) in source?.objectValue ?? JSONObject() where key.hasPrefix("x-") { object[key] = value }
        return .object(object)
    }

    func requestBody(_ request: RequestSpec) -> JSONValue? {
        guard let contentType = request.contentType else { return nil }
        var media = JSONObject()
        var body: JSONObject = ["required": true]
        if let schema = request.body {
            media["schema"] = translate(schema, depth: 0)
            if !request.examples.isEmpty { media["examples"] = examples(request.examples) }
        } else if !request.parts.isEmpty {
            var properties = JSONObject()
            for part in request.parts {
                var schema: JSONObject = part.kind == "file"
                    ? ["type": "string", "contentMediaType": "application/octet-stream"] : ["type": "string"]
                if let description = part.description { schema["description"] = .string(description) }
                if part.kind == "file", let max = request.maxFileBytes {
                    schema["x-maxFileBytes"] = .number(Double(max))
                }
                properties[part.name] = .object(schema)
            }
            let required = request.parts.filter(\.required).map { JSONValue.string($0.name) }
            var schema: JSONObject = ["type": "object", "properties": .object(properties)]
            if !required.isEmpty { schema["required"] = .array(required) }
            media["schema"] = .object(schema)
        }
        body["content"] = .object([contentType: .object(media)])
        if let max = request.maxBodyBytes { body["x-maxBodyBytes"] = .number(Double(max)) }
        return .object(body)
    }

    func securityScheme(_ auth: AuthRequirement) -> (String, JSONValue) {
        switch auth.scheme {
        case "basic":
            return ("basicAuth", ["type": "http", "scheme": "basic", "description": .string(auth.description ?? auth.credentials ?? "HTTP Basic")])
        case "bearer":
            return ("bearerAuth", ["type": "http", "scheme": "bearer", "description": .string(auth.description ?? "HTTP Bearer token")])
        default:
            let name = auth.header.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            return ("\(name)-apiKey", ["type": "apiKey", "in": "header", "name": .string(auth.header),
                                        "description": .string(auth.description ?? "API key")])
        }
    }

    /// One OpenAPI response for all contract responses sharing a status (e.g. every 400 code). With more than one, each
    /// is also listed whole in `x-responses` (code, condition, headers, body) and each example names its code.
    func response(_ group: [ResponseSpec], contract: Contract) -> JSONValue {
        func source(_ r: ResponseSpec) -> JSONValue? { Self.source(of: r, in: contract) }
        let description = group.count == 1 ? group[0].when : group.map { r in r.code.map { "\($0): \(r.when)" } ?? r.when }.joined(separator: "\n\n")
        var object: JSONObject = ["description": .string(description)]
        let codes = group.compactMap(\.code)
        if !codes.isEmpty { object["x-spotcheck-codes"] = .array(codes.map { .string($0) }) }
        var headers = JSONObject()
        for r in group {
            for h in r.headers where headers[h.name] == nil {
                // One OpenAPI entry stands for every response of this status: required only if each that documents it requires it.
                let required = group.allSatisfy { other in other.headers.first { $0.name == h.name }?.required ?? true }
                var header: JSONObject = ["required": .bool(required)]
                if let d = h.description { header["description"] = .string(d) }
                header["schema"] = translate(h.schema, depth: 0)
                if let example = r.examples.compactMap({ $0.headers[h.name] }).first { header["example"] = .string(example) }
                headers[h.name] = .object(header)
            }
        }
        if !headers.isEmpty { object["headers"] = .object(headers) }
        var bodyless: [JSONValue] = []
        if let first = group.first(where: { $0.body != nil }), let contentType = first.contentType, let body = first.body {
            let bodies = group.compactMap(\.body)
            // Responses of one status normally share a schema (the ErrorEnvelope); otherwise any of them.
            let schema: JSONValue = Set(bodies.map { $0.serialized() }).count == 1
                ? translate(body, depth: 0) : ["anyOf": .array(bodies.map { translate($0, depth: 0) })]
            var media: JSONObject = ["schema": schema]
            let allExamples = group.flatMap { r in r.examples.filter { $0.body != nil }.map { (r, $0) } }
            if !allExamples.isEmpty {
                var map = JSONObject()
                for (r, example) in allExamples {
                    var key = Self.slug(example.name)
                    if map[key] != nil, let code = r.code { key = Self.slug(code + " " + example.name) }
                    var n = 2
                    while map[key] != nil { key = Self.slug(example.name) + "-\(n)"; n += 1 }
                    map[key] = exampleEntry(example, response: r, group: group, source: source(r))
                }
                media["examples"] = .object(map)
            }
            object["content"] = .object([contentType: .object(media)])
        } else if let contentType = group.first(where: { $0.contentType != nil })?.contentType {
            // A non-JSON body such as an image: described by its media type only.
            object["content"] = .object([contentType: ["schema": ["type": "string", "contentMediaType": .string(contentType)]]])
        }
        for r in group {
            for example in r.examples where example.body == nil || r.body == nil {
                var entry: JSONObject = ["name": .string(example.name)]
                if let summary = example.summary { entry["summary"] = .string(summary) }
                if let body = example.body { entry["body"] = body }
                for (key, value) in exampleEntry(example, response: r, group: group, source: source(r)).objectValue ?? JSONObject() where key.hasPrefix("x-") && key != "x-name" {
                    entry[key] = value
                }
                bodyless.append(.object(entry))
            }
        }
        if !bodyless.isEmpty { object["x-examples"] = .array(bodyless) }
        if group.count == 1, let generate = source(group[0])?["x-generate"] { object["x-generate"] = generate }
        if group.count > 1 {
            object["x-responses"] = .array(group.map { r in
                var spec = JSONObject()
                if let code = r.code { spec["code"] = .string(code) }
                spec["when"] = .string(r.when)
                if let contentType = r.contentType { spec["contentType"] = .string(contentType) }
                if !r.headers.isEmpty {
                    spec["headers"] = .object(JSONObject(r.headers.map { h in
                        var header: JSONObject = ["required": .bool(h.required)]
                        if let d = h.description { header["description"] = .string(d) }
                        header["schema"] = translate(h.schema, depth: 0)
                        return (h.name, .object(header))
                    }))
                }
                if let body = r.body { spec["body"] = translate(body, depth: 0) }
                if let generate = source(r)?["x-generate"] { spec["x-generate"] = generate }
                return .object(spec)
            })
        }
        return .object(object)
    }

    /// One named example: its value, and what the folder's example says besides (name, code, request, headers).
    func exampleEntry(_ example: ContractExample, response: ResponseSpec, group: [ResponseSpec], source: JSONValue?) -> JSONValue {
        let written = source?["examples"]?.arrayValue?.first { $0["name"]?.stringValue == example.name }
        var entry = JSONObject()
        if let summary = example.summary { entry["summary"] = .string(summary) }
        if let body = example.body { entry["value"] = body }
        entry["x-name"] = .string(example.name)
        if group.count > 1, let code = response.code { entry["x-code"] = .string(code) }
        if let request = written?["request"] { entry["x-request"] = request }
        if let headers = written?["headers"] { entry["x-headers"] = headers }
        if let violations = written?["x-spotcheck-violations"] { entry["x-spotcheck-violations"] = violations }
        return .object(entry)
    }

    /// The response as its contract file writes it (status and code identify it).
    static func source(of response: ResponseSpec, in contract: Contract) -> JSONValue? {
        contract.source["responses"]?.arrayValue?.first { item in
            item["status"]?.intValue == response.status && item["code"]?.stringValue == response.code
        }
    }

    func examples(_ list: [ContractExample]) -> JSONValue {
        var map = JSONObject()
        for example in list {
            var entry = JSONObject()
            if let summary = example.summary { entry["summary"] = .string(summary) }
            entry["value"] = example.body ?? .null
            entry["x-name"] = .string(example.name)
            var key = Self.slug(example.name)
            var n = 2
            while map[key] != nil { key = Self.slug(example.name) + "-\(n)"; n += 1 }
            map[key] = .object(entry)
        }
        return .object(map)
    }

    static func slug(_ name: String) -> String {
        let mapped = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return mapped.split(separator: "-").joined(separator: "-")
    }

    /// `schema` with `$ref`s into `schemas/` pointed at components and other references inlined.
    func translate(_ schema: JSONValue, depth: Int) -> JSONValue {
        switch schema {
        case .object(let object):
            var out = JSONObject()
            for (key, value) in object {
                switch key {
                case "$schema":
                    continue
                case "$ref":
                    guard let ref = value.stringValue else { continue }
                    let (file, fragment) = SchemaReference.split(ref)
                    if file.hasPrefix("schemas/"), file.hasSuffix(".json") {
                        let name = String(file.dropFirst("schemas/".count).dropLast(".json".count))
                        out["$ref"] = .string("#/components/schemas/\(name)" + fragment)
                    } else if depth < 16,
                        let (target, _) = contracts.validator.resolve(ref, in: SchemaValidator.Scope(key: "", root: schema))
                    {
                        for (k, v) in translate(target, depth: depth + 1).objectValue ?? JSONObject() where out[k] == nil { out[k] = v }
                    }
                case "properties", "$defs", "definitions":
                    out[key] = .object(JSONObject((value.objectValue ?? JSONObject()).members.map { ($0.key, translate($0.value, depth: depth)) }))
                case "items", "additionalProperties", "not":
                    out[key] = translate(value, depth: depth)
                case "allOf", "anyOf", "oneOf":
                    out[key] = .array((value.arrayValue ?? []).map { translate($0, depth: depth) })
                default:
                    out[key] = value
                }
            }
            return .object(out)
        default:
            return schema
        }
    }
}
