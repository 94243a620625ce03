import Foundation

/// Operations: each becomes one contract file with its parameters, request, auth, responses and `x-` vocabulary.
extension OpenAPITranslator {
    /// The contract keys an operation carries as `x-` extensions of the same name.
    static let operationExtensions = ["x-also-at", "x-state"]

    mutating func translateOperation(_ operation: JSONObject, context: OperationContext) {
        let file = context.file
        let pointer = context.pointer
        var path = Self.join(context.basePath, context.pathKey)
        if let rewrite = prefixRewrite, path == rewrite.from || path.hasPrefix(rewrite.from + "/") || rewrite.from.isEmpty {
            path = rewrite.to + path.dropFirst(rewrite.from.count)
        }
        guard let template = PathTemplate(path) else {
            warnings.append(context.problem(pointer, "the path \(path) has a parameter that is not a whole segment (such as /{id}.png); SpotCheck routes only whole-segment parameters, so the operation is not served"))
            return
        }
        let id = uniqueId(operation["operationId"]?.stringValue.map(Self.identifier) ?? Self.identifier(context.method.lowercased() + " " + path))
        let key = uniqueFile(operation["x-file"]?.stringValue.flatMap { Self.isPlainFileName($0) && $0.hasSuffix(".json") ? $0 : nil }
            ?? Self.kebab(id) + ".json")
        if operation["callbacks"]?.objectValue?.isEmpty == false {
            warnings.append(context.problem(JSONPointer.appending(pointer, "callbacks"),
                "callbacks are calls the server makes, which SpotCheck neither serves nor checks; the operation is served without them"))
        }
        var contract: JSONObject = ["id": .string(id)]
        let description = operation["description"]?.stringValue?.split(separator: "\n").first.map(String.init)
        contract["summary"] = .string(operation["summary"]?.stringValue ?? description ?? "\(context.method) \(path)")
        contract["method"] = .string(context.method)
        contract["path"] = .string(path)
        map(key, "", file: file, at: pointer)

        var parameters = self.parameters(operation, context: context)
        var pathParameters = JSONObject()
        for name in template.parameterNames {
            if let found = parameters.path[name] {
                pathParameters[name] = found.value
                map(key, JSONPointer.appending("/pathParameters", name), file: found.file, at: found.at)
            } else {
                warnings.append(context.problem(pointer, "the path parameter \(name) is not described; any non-empty text is accepted"))
                pathParameters[name] = ["schema": ["type": "string", "minLength": 1]]
            }
        }
        for name in parameters.path.keys where !template.parameterNames.contains(name) {
            warnings.append(context.problem(parameters.path[name]!.at, "the path parameter \(name) is not in the path \(context.pathKey); left out"))
        }
        if !pathParameters.isEmpty { contract["pathParameters"] = .object(pathParameters) }

        var request = JSONObject()
        if let auth = self.auth(operation, context: context, queryKeys: &parameters.query) { request["auth"] = auth }
        for (location, list) in [("headers", parameters.header), ("query", parameters.query)] where !list.isEmpty {
            var members = JSONObject()
            for (name, found) in list {
                members[name] = found.value
                map(key, JSONPointer.appending("/request/\(location)", name), file: found.file, at: found.at)
            }
            request[location] = .object(members)
        }
        if let body = operation["requestBody"] {
            requestBody(body, into: &request, key: key, context: context, at: JSONPointer.appending(pointer, "requestBody"))
        }
        if !request.isEmpty {
            // The folder's key order: contentType, auth, headers, query, body, parts, limits, examples.
            let order = ContractLoader.requestKeys
            contract["request"] = .object(JSONObject(order.compactMap { k in request[k].map { (k, $0) } }))
        }
        contract["responses"] = .array(responses(operation["responses"], key: key, context: context,
                                                 at: JSONPointer.appending(pointer, "responses")))
        for name in Self.operationExtensions {
            if let value = operation[name] {
                contract[name] = value
                map(key, "/" + name, file: file, at: JSONPointer.appending(pointer, name))
            }
        }
        setFolderFile(key, .object(contract))
    }

    static func join(_ base: String, _ path: String) -> String {
        if base.isEmpty || path == base || path.hasPrefix(base + "/") { return path.isEmpty ? "/" : path }
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// An identifier (`^[A-Za-z][A-Za-z0-9_]*$`) from any text: words joined in lower camel case.
    static func identifier(_ text: String) -> String {
        if RegexCache.shared.matches("^[A-Za-z][A-Za-z0-9_]*$", text) == true { return text }
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        var out = ""
        for (i, word) in words.enumerated() {
            out += i == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }
        out = String(out.unicodeScalars.filter { $0.isASCII }.map(Character.init))
        if out.isEmpty || !(out.first!.isLetter) { out = "op" + out }
        return out
    }

    /// `createAnnouncement` → `create-announcement`.
    static func kebab(_ id: String) -> String {
        var out = ""
        for c in id {
            if c.isUppercase, !out.isEmpty, out.last != "-" { out += "-" }
            out += c == "_" ? "-" : c.lowercased()
        }
        return out
    }

    mutating func uniqueId(_ id: String) -> String {
        var candidate = id
        var n = 2
        while !takenIds.insert(candidate).inserted {
            candidate = "\(id)\(n)"
            n += 1
        }
        return candidate
    }

    mutating func uniqueFile(_ name: String) -> String {
        var candidate = name
        var n = 2
        while candidate == ServiceFile.fileName || candidate == KnownDefect.fileName || !takenFiles.insert(candidate).inserted {
            candidate = String(name.dropLast(".json".count)) + "-\(n).json"
            n += 1
        }
        return candidate
    }

    /// A parameter in the folder's form and where it was written.
    struct FoundParameter {
        let value: JSONValue
        let file: OpenAPISourceFile
        let at: String
    }

    /// The operation's parameters with the path item's (an operation's own wins), by location, in order.
    mutating func parameters(_ operation: JSONObject, context: OperationContext)
        -> (path: [String: FoundParameter], query: [(String, FoundParameter)], header: [(String, FoundParameter)])
    {
        var ordered: [(String, String, FoundParameter)] = []
        let lists: [(JSONValue?, OpenAPISourceFile, String)] = [
            (context.pathItem["parameters"], context.file, JSONPointer.appending(context.pathItemPointer, "parameters")),
            (operation["parameters"], context.file, JSONPointer.appending(context.pointer, "parameters")),
        ]
        for (list, file, at) in lists {
            for (i, item) in (list?.arrayValue ?? []).enumerated() {
                let itemAt = JSONPointer.appending(at, i)
                guard let (pFile, pAt, p) = resolveObject(item, in: file, at: itemAt, what: "parameter"),
                    let name = p["name"]?.stringValue, let location = p["in"]?.stringValue else { continue }
                if location == "cookie" {
                    warnings.append(context.problem(pAt, "the cookie parameter \(name) is not checked by SpotCheck; left out"))
                    continue
                }
                guard ["path", "query", "header"].contains(location) else { continue }
                var spec = JSONObject()
                if location != "path", let r = p["required"] { spec["required"] = r }
                if let d = p["description"] { spec["description"] = d }
                if let s = p["schema"] {
                    spec["schema"] = schema(s, file: pFile, at: JSONPointer.appending(pAt, "schema"), dialect: context.dialect, inSchemasFolder: false)
                } else {
                    warnings.append(context.problem(pAt, "the parameter \(name) has no schema (content is not read); any value is accepted"))
                    spec["schema"] = .object(JSONObject())
                }
                for (k, v) in p where ContractLoader.parameterKeys.contains(k) && k.hasPrefix("x-") { spec[k] = v }
                let found = FoundParameter(value: .object(spec), file: pFile, at: pAt)
                ordered.removeAll { $0.0 == location && $0.1.lowercased() == name.lowercased() }
                ordered.append((location, name, found))
            }
        }
        var path: [String: FoundParameter] = [:]
        for (location, name, found) in ordered where location == "path" { path[name] = found }
        return (path, ordered.filter { $0.0 == "query" }.map { ($0.1, $0.2) }, ordered.filter { $0.0 == "header" }.map { ($0.1, $0.2) })
    }
}
