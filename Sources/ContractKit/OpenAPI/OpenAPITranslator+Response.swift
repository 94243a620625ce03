import Foundation

/// Responses: one contract response per status, or per status and error code when the document says which codes a
/// status carries (`x-responses`, or the codes its examples carry), each with its headers, body and named examples.
extension OpenAPITranslator {
    /// The example keys that carry the folder's example fields (`x-name` is read with the name).
    static let exampleExtensions = ["x-headers": "headers", "x-request": "request", "x-spotcheck-violations": "x-spotcheck-violations"]

    mutating func responses(_ value: JSONValue?, key: String, context: OperationContext, at pointer: String) -> [JSONValue] {
        guard case .object(let statuses)? = value, !statuses.isEmpty else {
            warnings.append(context.problem(pointer, "the operation documents no response; it answers 501 Not Implemented"))
            return [["status": 501, "when": "The document states no response.", "examples": [["name": "no response documented"]]]]
        }
        var out: [JSONValue] = []
        for (statusKey, responseValue) in statuses {
            let responseAt = JSONPointer.appending(pointer, statusKey)
            guard let status = Int(statusKey), (100...599).contains(status) else {
                warnings.append(context.problem(responseAt, "the response \(statusKey) names no single status; SpotCheck serves and checks numbered statuses only, so it is left out"))
                continue
            }
            guard let (file, at, response) = resolveObject(responseValue, in: context.file, at: responseAt, what: "response") else { continue }
            for (i, spec) in contractResponses(status: status, response: response, file: file, at: at, context: context).enumerated() {
                map(key, JSONPointer.appending("/responses", out.count), file: file, at: at)
                for (j, example) in spec.examples.enumerated() {
                    map(key, JSONPointer.appending(JSONPointer.appending(JSONPointer.appending("/responses", out.count), "examples"), j),
                        file: example.file, at: example.at)
                }
                if spec.examples.isEmpty { pendingExamples.append((key, out.count)) }
                _ = i
                out.append(.object(spec.object))
            }
        }
        return out
    }

    /// One contract response before its examples are attached.
    struct ResponseDraft {
        var object: JSONObject
        var examples: [FoundExample] = []
        var code: String? { object["code"]?.stringValue }
    }

    /// A response's `links` as `x-links`: link name → the target operation's contract id and its parameters' runtime
    /// expressions (`$response.body#/id`), which verify evaluates to fill the target's parameters from this answer.
    mutating func links(_ value: JSONValue?, file: OpenAPISourceFile, at: String) -> JSONValue? {
        guard case .object(let links)? = value, !links.isEmpty else { return nil }
        var out = JSONObject()
        for (name, linkValue) in links {
            guard let (_, _, link) = resolveObject(linkValue, in: file, at: JSONPointer.appending(at, name), what: "link"),
                  let operation = link["operationId"]?.stringValue, case .object(let parameters)? = link["parameters"] else { continue }
            out[name] = ["operation": .string(Self.identifier(operation)), "parameters": .object(parameters)]
        }
        return out.isEmpty ? nil : .object(out)
    }

    mutating func contractResponses(status: Int, response: JSONObject, file: OpenAPISourceFile, at: String, context: OperationContext) -> [ResponseDraft] {
        let links = self.links(response["links"], file: file, at: JSONPointer.appending(at, "links"))
        let headers = self.headers(response["headers"], file: file, at: JSONPointer.appending(at, "headers"), context: context)
        var contentType: String?
        var body: JSONValue?
        var found: [FoundExample] = []
        if case .object(let content)? = response["content"], !content.isEmpty {
            let chosen = content.keys.first { ContractLoader.isJSON(Self.mediaType($0)) } ?? content.keys[0]
            let mediaAt = JSONPointer.appending(JSONPointer.appending(at, "content"), chosen)
            contentType = Self.mediaType(chosen)
            let media = content[chosen]?.objectValue ?? JSONObject()
            if ContractLoader.isJSON(contentType!), let s = media["schema"] {
                body = schema(s, file: file, at: JSONPointer.appending(mediaAt, "schema"), dialect: context.dialect, inSchemasFolder: false)
                found = examples(media, file: file, at: mediaAt, context: context)
            }
            if content.count > 1 {
                warnings.append(context.problem(JSONPointer.appending(at, "content"), "the \(status) answer is served as \(chosen) only"))
            }
        }
        for (i, item) in (response["x-examples"]?.arrayValue ?? []).enumerated() {
            guard case .object(let e) = item, let name = e["name"]?.stringValue else { continue }
            var extensions = JSONObject()
            for (k, v) in e where k != "name" && k != "summary" && k != "body" { extensions[k.hasPrefix("x-") ? k : "x-" + k] = v }
            found.append(FoundExample(name: name, summary: e["summary"]?.stringValue, value: e["body"], extensions: extensions,
                                      file: file, at: JSONPointer.appending(JSONPointer.appending(at, "x-examples"), i)))
        }
        let when = response["description"]?.stringValue.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            ?? "Status \(status)."
        var drafts: [ResponseDraft] = []
        if case .array(let listed)? = response["x-responses"] {
            // Several contract responses share this status (each error code its own); the document lists them.
            for item in listed {
                guard case .object(var spec) = item else { continue }
                spec["status"] = .number(Double(status))
                if let s = spec["body"] {
                    spec["body"] = schema(s, file: file, at: JSONPointer.appending(at, "x-responses"), dialect: context.dialect, inSchemasFolder: false)
                }
                if let h = spec["headers"] {
                    spec["headers"] = self.headers(h, file: file, at: JSONPointer.appending(at, "x-responses"), context: context).map(JSONValue.object) ?? h
                }
                drafts.append(ResponseDraft(object: Self.ordered(spec)))
            }
        }
        if drafts.isEmpty {
            var spec: JSONObject = ["status": .number(Double(status))]
            if let code = response["x-spotcheck-codes"]?.arrayValue?.first?.stringValue { spec["code"] = .string(code) }
            spec["when"] = .string(when)
            if let contentType { spec["contentType"] = .string(contentType) }
            if let headers { spec["headers"] = .object(headers) }
            if let body { spec["body"] = body }
            if let generate = response["x-generate"] { spec["x-generate"] = generate }
            if let links { spec["x-links"] = links }
            drafts.append(ResponseDraft(object: Self.ordered(spec)))
        }
        // An error answer with a body but no stated code takes the codes its examples carry, one response per code.
        if drafts.count == 1, drafts[0].code == nil, status >= 400, body != nil {
            let codes = found.compactMap { $0.value?["error"]?["code"]?.stringValue }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if !codes.isEmpty {
                let template = drafts[0].object
                drafts = codes.map { code in
                    var object = template
                    object["code"] = .string(code)
                    return ResponseDraft(object: Self.ordered(object))
                }
            }
        }
        for example in found {
            let code = example.extensions["x-code"]?.stringValue ?? example.value?["error"]?["code"]?.stringValue
            let index = drafts.firstIndex { $0.code == code } ?? 0
            drafts[index].examples.append(example)
        }
        for i in drafts.indices {
            drafts[i].object["examples"] = .array(drafts[i].examples.map(Self.exampleValue))
            drafts[i].object = Self.ordered(drafts[i].object)
        }
        return drafts
    }

    static func exampleValue(_ found: FoundExample) -> JSONValue {
        var e: JSONObject = ["name": .string(found.name)]
        if let s = found.summary { e["summary"] = .string(s) }
        if let v = found.value { e["body"] = v }
        for (ext, key) in exampleExtensions.sorted(by: { $0.key < $1.key }) { if let v = found.extensions[ext] { e[key] = v } }
        return .object(e)
    }

    /// A response object's members in the folder's order.
    static func ordered(_ spec: JSONObject) -> JSONObject {
        JSONObject(ContractLoader.responseKeys.compactMap { k in spec[k].map { (k, $0) } })
    }

    /// Response headers in the folder's form; `Content-Type` is the media type's business, as OpenAPI says.
    mutating func headers(_ value: JSONValue?, file: OpenAPISourceFile, at pointer: String, context: OperationContext) -> JSONObject? {
        guard case .object(let members)? = value, !members.isEmpty else { return nil }
        var out = JSONObject()
        for (name, headerValue) in members where name.lowercased() != "content-type" {
            let headerAt = JSONPointer.appending(pointer, name)
            guard let (hFile, hAt, header) = resolveObject(headerValue, in: file, at: headerAt, what: "header") else { continue }
            var spec = JSONObject()
            if let r = header["required"] { spec["required"] = r }
            if let d = header["description"] { spec["description"] = d }
            if let s = header["schema"] {
                spec["schema"] = schema(s, file: hFile, at: JSONPointer.appending(hAt, "schema"), dialect: context.dialect, inSchemasFolder: false)
            } else {
                spec["schema"] = .object(JSONObject())
            }
            out[name] = .object(spec)
        }
        return out.isEmpty ? nil : out
    }
}
