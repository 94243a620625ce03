import Foundation

/// Translates OpenAPI 3.0 and 3.1 documents into the contract folder they describe: contract files, shared schemas,
/// `service.json`, `known-defects.json` and fixtures, as JSON values under their folder-relative paths. Loading those
/// values with the folder loader gives the one compiled model every command uses, and writing them is `import openapi`.
///
/// What the document says but SpotCheck cannot serve or check, and where the document contradicts itself, becomes a
/// warning naming the place (and the other place, for a contradiction); the rest is still translated.
struct OpenAPITranslator {
    /// The dialect a schema is written in.
    enum Dialect {
        /// OpenAPI 3.0's schema object: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, `$ref` siblings ignored.
        case openAPI30
        /// OpenAPI 3.1: JSON Schema 2020-12.
        case jsonSchema2020
    }

    var fileSet: OpenAPIFileSet
    /// Overrides every document's `servers` base path.
    let basePathOverride: String?
    /// Every operation path that starts with `from` gets `to` in its place, after the base path is joined (a probe found
    /// the operations served under another prefix than the document states).
    var prefixRewrite: (from: String, to: String)?
    /// The folder being built: path relative to the folder → content.
    var folder: [String: JSONValue] = [:]
    /// For each folder file, where its parts came from.
    var sourceMap = OpenAPISourceMap()
    /// What is served around or not served, and the document's contradictions.
    var warnings: [OpenAPIProblem] = []
    /// Named schemas: the place a schema `$ref` points at → its file name under `schemas/` (without `.json`).
    var schemaNames: [OpenAPILocation: String] = [:]
    var takenSchemaNames: Set<String> = []
    /// Named schemas still to translate.
    var pendingSchemas: [(OpenAPILocation, Dialect)] = []
    /// Responses the document gives no example for (contract file, response index): one is made from the schema.
    var pendingExamples: [(String, Int)] = []
    var takenIds: Set<String> = []
    var takenFiles: Set<String> = []

    init(fileSet: OpenAPIFileSet, basePathOverride: String?) {
        self.fileSet = fileSet
        self.basePathOverride = basePathOverride
    }

    /// Translates each root document in turn.
    mutating func translate(roots: [URL]) throws(OpenAPIProblem) {
        for root in roots {
            guard let file = fileSet.file(root) else {
                throw fileSet.failure(root) ?? OpenAPIProblem(file: LintPrinter.displayPath(root), pointer: "", message: "the file cannot be read")
            }
            try translateDocument(file)
        }
        while !pendingSchemas.isEmpty {
            let (location, dialect) = pendingSchemas.removeFirst()
            translateNamedSchema(location, dialect: dialect)
        }
    }

    mutating func translateDocument(_ file: OpenAPISourceFile) throws(OpenAPIProblem) {
        guard case .object(let document) = file.value else {
            throw file.problem("", "an OpenAPI document must be a mapping with openapi, info and paths")
        }
        let dialect: Dialect
        switch document["openapi"]?.stringValue ?? "" {
        case let v where v.hasPrefix("3.0."): dialect = .openAPI30
        case let v where v.hasPrefix("3.1."): dialect = .jsonSchema2020
        default:
            if document["swagger"] != nil {
                throw file.problem("/swagger", "Swagger 2.0 is not read; convert the document to OpenAPI 3.0 or 3.1 first")
            }
            let found = document["openapi"].map { SchemaValidator.describe($0) } ?? "nothing"
            throw file.problem("/openapi", "openapi must name version 3.0.x or 3.1.x, found \(found)")
        }
        warnings += OpenAPIKitCheck.warnings(for: file, dialect: dialect)
        let basePath = basePathOverride ?? Self.basePath(document["servers"])
        // Every server's path, the first one's included: where a probe looks when the base path taken is not served.
        for server in document["servers"]?.arrayValue ?? [] {
            sourceMap.addServerPath(Self.basePath(.array([server])))
        }
        if document["webhooks"]?.objectValue?.isEmpty == false {
            warnings.append(file.problem("/webhooks", "webhooks are calls the server makes, which SpotCheck neither serves nor checks; left out"))
        }
        translateDocumentExtensions(document, file: file)
        guard case .object(let paths)? = document["paths"] else {
            if document["paths"] == nil, document["webhooks"] != nil || document["components"] != nil { return }
            throw file.problem("/paths", "the document has no paths object, so it describes no endpoint")
        }
        let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        for (pathKey, itemValue) in paths {
            let itemPointer = JSONPointer.appending("/paths", pathKey)
            // A path item may itself be a $ref (to another file's path item).
            guard let (itemFile, itemAt, item) = resolveObject(itemValue, in: file, at: itemPointer, what: "path item") else { continue }
            for (method, opValue) in item where methods.contains(method) {
                guard case .object(let operation) = opValue else { continue }
                let context = OperationContext(file: itemFile, pointer: JSONPointer.appending(itemAt, method), method: method.uppercased(),
                                               pathKey: pathKey, basePath: basePath, dialect: dialect, document: document,
                                               rootFile: file, pathItem: item, pathItemPointer: itemAt)
                translateOperation(operation, context: context)
            }
        }
    }

    /// The path of the first server's URL (`http://host/api/v1` → `/api/v1`), its variables at their defaults.
    static func basePath(_ servers: JSONValue?) -> String {
        guard let first = servers?.arrayValue?.first?.objectValue, var url = first["url"]?.stringValue else { return "" }
        for (name, variable) in first["variables"]?.objectValue ?? JSONObject() {
            url = url.replacingOccurrences(of: "{\(name)}", with: variable["default"]?.stringValue ?? "")
        }
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        while url.hasSuffix("/") { url.removeLast() }
        return url.hasPrefix("/") || url.isEmpty ? url : "/" + url
    }

    /// `x-service`, `x-known-defects` and `x-fixtures`: what a contract folder keeps beside its contracts.
    mutating func translateDocumentExtensions(_ document: JSONObject, file: OpenAPISourceFile) {
        if let service = document["x-service"] {
            folder[ServiceFile.fileName] = service
            sourceMap.add(key: ServiceFile.fileName, pointer: "", file: file, at: "/x-service")
        }
        if let defects = document["x-known-defects"] {
            folder[KnownDefect.fileName] = defects
            sourceMap.add(key: KnownDefect.fileName, pointer: "", file: file, at: "/x-known-defects")
        }
        if let fixtures = document["x-fixtures"] {
            guard case .object(let members) = fixtures else {
                warnings.append(file.problem("/x-fixtures", "x-fixtures must map a fixture file name to its content; left out"))
                return
            }
            for (name, value) in members {
                guard Self.isPlainFileName(name) else {
                    warnings.append(file.problem(JSONPointer.appending("/x-fixtures", name),
                        "a fixture name must be a plain file name such as pets.json; left out"))
                    continue
                }
                folder["fixtures/" + name] = value
            }
        }
    }

    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
    }

    /// Follows `$ref`s (up to 32) to an object: its file, pointer and members; a `$ref` to nothing is a warning.
    mutating func resolveObject(_ value: JSONValue, in file: OpenAPISourceFile, at pointer: String,
                                what: String) -> (OpenAPISourceFile, String, JSONObject)? {
        var current = (file: file, pointer: pointer, value: value)
        for _ in 0..<32 {
            guard case .object(let object) = current.value else {
                warnings.append(current.file.problem(current.pointer, "expected a \(what) object, found \(SchemaValidator.describe(current.value)); left out"))
                return nil
            }
            guard let ref = object["$ref"]?.stringValue else { return (current.file, current.pointer, object) }
            guard let target = resolve(ref, from: current.file, at: JSONPointer.appending(current.pointer, "$ref")) else { return nil }
            current = target
        }
        warnings.append(file.problem(pointer, "the $ref chain of this \(what) does not end; left out"))
        return nil
    }

    /// The value a `$ref` names, with its file and pointer; a warning naming both places when there is none.
    mutating func resolve(_ ref: String, from file: OpenAPISourceFile, at pointer: String) -> (file: OpenAPISourceFile, pointer: String, value: JSONValue)? {
        guard let location = OpenAPIReference.target(ref, in: file.url) else {
            warnings.append(file.problem(pointer, "the $ref \"\(ref)\" names a remote document, which SpotCheck does not fetch; left unchecked"))
            return nil
        }
        guard let target = fileSet.file(location.url) else {
            let why = fileSet.failure(location.url).map { ": \($0)" } ?? ""
            warnings.append(file.problem(pointer, "the $ref \"\(ref)\" names a file that cannot be read\(why); left unchecked"))
            return nil
        }
        guard let value = JSONPointer.resolve(location.pointer, in: target.value) else {
            let other = "\(target.display):\(location.pointer.isEmpty ? "(root)" : location.pointer)"
            warnings.append(file.problem(pointer, "the $ref \"\(ref)\" points to nothing (\(other) does not exist); left unchecked"))
            return nil
        }
        return (target, location.pointer, value)
    }

    /// Records a folder file and where it came from.
    mutating func emit(_ key: String, _ value: JSONValue, file: OpenAPISourceFile, at pointer: String) {
        folder[key] = value
        sourceMap.add(key: key, pointer: "", file: file, at: pointer)
    }

    mutating func map(_ key: String, _ pointer: String, file: OpenAPISourceFile, at: String) {
        sourceMap.add(key: key, pointer: pointer, file: file, at: at)
    }

    mutating func setFolderFile(_ key: String, _ value: JSONValue) {
        folder[key] = value
    }
}

/// Where one operation sits and what it inherits from its document and path item.
struct OperationContext {
    let file: OpenAPISourceFile
    let pointer: String
    let method: String
    let pathKey: String
    let basePath: String
    let dialect: OpenAPITranslator.Dialect
    let document: JSONObject
    let rootFile: OpenAPISourceFile
    let pathItem: JSONObject
    let pathItemPointer: String

    /// How a person finds the operation: its operationId, else method and path.
    var name: String {
        let id = file.value[pointerTokens: pointer]?["operationId"]?.stringValue
        return id ?? "\(method) \(pathKey)"
    }

    func problem(_ at: String, _ message: String) -> OpenAPIProblem {
        file.problem(at, "\(name): \(message)")
    }
}

extension JSONValue {
    /// The value at a JSON pointer.
    subscript(pointerTokens pointer: String) -> JSONValue? {
        JSONPointer.resolve(pointer, in: self)
    }
}
