import Foundation

/// Reads a contracts folder (top-level `*.json` contract files and `schemas/*.json` shared schemas),
/// collecting every problem as a `LintProblem`. Other subfolders (e.g. `fixtures/`) are not contracts.
struct ContractLoader {
    static let contractKeys = ["id", "summary", "method", "path", "pathParameters", "request", "responses", "x-also-at", "x-state"]
    static let requestKeys = ["contentType", "auth", "headers", "query", "body", "parts", "maxBodyBytes", "maxFileBytes", "examples"]
    static let authKeys = ["scheme", "header", "credentials", "description", "x-admin", "x-errors", "x-token", "x-empty-is-missing"]
    static let authSchemes = ["basic", "bearer", "apiKey"]
    static let parameterKeys = ["required", "schema", "description", "x-errors", "x-parse", "x-requires"]
    static let partKeys = ["required", "kind", "description"]
    static let responseKeys = ["status", "code", "when", "contentType", "headers", "body", "examples", "x-generate", "x-links"]
    static let exampleKeys = ["name", "summary", "body", "headers", "request", "x-spotcheck-violations"]
    static let exampleRequestKeys = ["body", "rawBody", "headers", "query", "pathParameters", "parts"]
    static let examplePartKinds = ["file", "text"]
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    let directory: URL
    var problems: [LintProblem] = []
    /// Entries that look like contract files but are not loaded (a folder named `*.json`, a broken or looping symlink):
    /// they do not stop the load, but skipping them silently would hide a contract the user thinks is there.
    var warnings: [LintProblem] = []
    /// Rules without stated answers (see `RuleCompiler.unstated`): `lint` warns, nothing fails.
    var unstatedRules: [LintProblem] = []
    var documents: [String: JSONValue] = [:]
    var validator = SchemaValidator()
    /// Each contract's request rules by contract id, compiled while loading (their problems are lint problems).
    var requestRules: [String: RequestRules] = [:]
    /// The entries of `known-defects.json`, when the folder has one.
    var knownDefects: [KnownDefect] = []
    /// `service.json`, or the plain defaults when the folder has none.
    var service = ServiceFile.plain
    /// Where a lint-clean load is remembered; nil lints at every load.
    var cache: ContractLintCache?
    /// True when the cache vouched for this exact content: the schema lint and the example checks are skipped (the
    /// structural decoding still runs, it builds the contracts).
    private(set) var checksSkipped = false
    /// Whether a `$ref` fan-out was found: validating anything against those schemas would never end, so it is skipped.
    private var fannedOut = false
    /// The hash of the schemas' and contracts' names and bytes, as parsed.
    private var contentHash = ContentHash()

    /// The folder's files held in memory (path relative to the folder → bytes) instead of read from `directory`: the
    /// folder an OpenAPI document translates into. Nil reads the disk.
    let memoryFiles: [String: Data]?

    init(directory: URL) {
        self.directory = directory.standardizedFileURL
        self.memoryFiles = nil
    }

    /// A loader of a folder held in memory; `directory` only names it (contract files' URLs, display names).
    init(directory: URL, files: [String: Data]) {
        self.directory = directory.standardizedFileURL
        self.memoryFiles = files
    }

    /// Whether the folder has the file `key` (beside the contracts: `service.json`, `known-defects.json`).
    func hasFile(_ key: String) -> Bool {
        if let memoryFiles { return memoryFiles[key] != nil }
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent(key).path)
    }

    /// Display names of the files found, worked out once: the loader asks for one per contract, parameter and schema, and
    /// each costs URL standardisation and a look at the working directory (a measurable part of `serve`'s start).
    private var displayNames: [String: String] = [:]

    func display(_ key: String) -> String {
        displayNames[key] ?? LintPrinter.displayPath(directory.appendingPathComponent(key))
    }

    /// Loads everything; the result is usable only when `problems` is empty afterwards.
    mutating func load() -> (contracts: [Contract], schemas: [String: JSONValue]) {
        var isFolder: ObjCBool = false
        guard memoryFiles != nil || (FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) && isFolder.boolValue) else {
            problems.append(LintProblem(file: LintPrinter.displayPath(directory), pointer: "",
                message: "no contracts folder here; expected a folder of contract files"))
            return ([], [:])
        }
        // The known-defects and service files sit beside the contracts but are not ones.
        let contractKeys = jsonFiles(in: directory).filter { $0 != KnownDefect.fileName && $0 != ServiceFile.fileName }
        let schemaKeys = jsonFiles(in: directory.appendingPathComponent("schemas")).map { "schemas/" + $0 }
        for key in schemaKeys + contractKeys { displayNames[key] = LintPrinter.displayPath(directory.appendingPathComponent(key)) }
        if contractKeys.isEmpty {
            problems.append(LintProblem(file: LintPrinter.displayPath(directory), pointer: "",
                message: "the folder has no contract files (*.json)"))
        }

        var parsed: [String: JSONValue] = [:]
        for key in schemaKeys + contractKeys {
            if let value = parse(key) { parsed[key] = value }
        }
        let hash = contentHash.hex
        checksSkipped = problems.isEmpty && cache?.vouches(for: hash) == true
        let schemas = index(parsed, schemaKeys: schemaKeys, contractKeys: contractKeys)
        if !checksSkipped, let problem = referenceFanOutProblem() {
            problems.append(problem)
            fannedOut = true
        }

        for key in schemaKeys where !checksSkipped && !fannedOut {
            guard let value = parsed[key] else { continue }
            problems += SchemaLinter(file: display(key), validator: validator, documentKey: key, documentRoot: value)
                .lint(value, at: "")
        }
        var contracts: [Contract] = []
        for key in contractKeys {
            guard let value = parsed[key] else { continue }
            if let contract = decodeContract(value, key: key) { contracts.append(contract) }
        }
        checkUniqueness(contracts)
        if !fannedOut { compileRules(contracts) }
        if !checksSkipped { problems += referenceCycleProblems() }
        if hasFile(KnownDefect.fileName), let value = parse(KnownDefect.fileName)
        {
            knownDefects = KnownDefectLoader.read(value, file: display(KnownDefect.fileName), contracts: contracts, problems: &problems)
        }
        if hasFile(ServiceFile.fileName), let value = parse(ServiceFile.fileName)
        {
            service = ServiceFileReader.read(value, file: display(ServiceFile.fileName), problems: &problems)
        }
        problems += RouteTable.problems(contracts: contracts, service: service) { LintPrinter.displayPath($0) }
        problems += ExampleResponder.problems(contracts: contracts) { LintPrinter.displayPath($0) }
        if problems.isEmpty, !checksSkipped { cache?.record(hash) }
        return (contracts, schemas)
    }

    /// Keeps the parsed files as the documents `$ref`s resolve in (shared schemas with canonical `$ref`s, contracts as
    /// written) and builds the validator over them; returns the shared schemas by name.
    mutating func index(_ parsed: [String: JSONValue], schemaKeys: [String], contractKeys: [String]) -> [String: JSONValue] {
        var schemas: [String: JSONValue] = [:]
        for key in schemaKeys {
            guard let value = parsed[key] else { continue }
            let canonical = SchemaReference.canonicalize(value, documentKey: key)
            documents[key] = canonical
            schemas[String(key.dropFirst("schemas/".count).dropLast(".json".count))] = canonical
        }
        for key in contractKeys { if let value = parsed[key] { documents[key] = value } }
        validator = SchemaValidator(documents: documents)
        return schemas
    }

    /// Readies the example checks (`ContractLoader+Examples`) for the folder `files` without loading it: the documents
    /// and validator a load of it builds, and whether a `$ref` fan-out makes the load skip checking values. Keys are
    /// sorted out as the loader's file listing sorts them: `schemas/*.json`, and top-level `*.json` contract files.
    mutating func prepareExampleChecks(_ files: [String: JSONValue]) {
        let keys = files.keys.filter { $0.hasSuffix(".json") }.sorted()
        let schemaKeys = keys.filter { $0.hasPrefix("schemas/") && !$0.dropFirst("schemas/".count).contains("/") }
        let contractKeys = keys.filter { !$0.contains("/") && $0 != KnownDefect.fileName && $0 != ServiceFile.fileName }
        _ = index(files, schemaKeys: schemaKeys, contractKeys: contractKeys)
        fannedOut = referenceFanOutProblem() != nil
    }

    /// Compiles every contract's request rules; a problem in a schema shared by several contracts is reported once.
    mutating func compileRules(_ contracts: [Contract]) {
        var compiler = RuleCompiler(validator: validator)
        for contract in contracts {
            requestRules[contract.id] = compiler.compile(contract, documentKey: contract.file.lastPathComponent)
        }
        var seen: Set<RuleProblem> = []
        for problem in compiler.problems where seen.insert(problem).inserted {
            problems.append(LintProblem(file: display(problem.documentKey), pointer: problem.pointer, message: problem.message))
        }
        for note in compiler.unstated where seen.insert(note).inserted {
            unstatedRules.append(LintProblem(file: display(note.documentKey), pointer: note.pointer, message: note.message))
        }
    }

    /// A problem at the first `$ref` that fans out past `ReferenceFanOutFinder.limit` paths, or nil.
    func referenceFanOutProblem() -> LintProblem? {
        guard let found = ReferenceFanOutFinder(cycles: ReferenceCycleFinder(documents: documents, validator: validator)).fanOut() else { return nil }
        return LintProblem(file: display(found.site.key), pointer: found.site.pointer,
            message: "this $ref expands into more than \(ReferenceFanOutFinder.limit) schema paths on one value (allOf/anyOf/oneOf of refs that fan out again); no value could be checked in bounded time: refer to each schema once")
    }

    /// One problem per `$ref` cycle, at its first `$ref`, with every step of the chain.
    func referenceCycleProblems() -> [LintProblem] {
        ReferenceCycleFinder(documents: documents, validator: validator).cycles().map { cycle in
            let chain = (cycle + [cycle[0]]).map { "\(display($0.key)):\($0.pointer)" }.joined(separator: " → ")
            return LintProblem(file: display(cycle[0].key), pointer: cycle[0].pointer,
                message: "this $ref loops back to itself without reaching a schema that checks the value (\(chain)); no value could ever pass")
        }
    }

    mutating func jsonFiles(in folder: URL) -> [String] {
        if let memoryFiles {
            let prefix = folder.standardizedFileURL == directory ? "" : folder.lastPathComponent + "/"
            return memoryFiles.keys.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") && !$0.dropFirst(prefix.count).contains("/") }
                .map { String($0.dropFirst(prefix.count)) }.sorted()
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            // A missing schemas/ folder is normal; one that exists (or is a link) but cannot be listed hides its files.
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path) {
                warnings.append(LintProblem(file: LintPrinter.displayPath(folder), pointer: "",
                    message: "skipped: a symbolic link to \"\(target)\" that leads to no folder (missing, or a loop of links)"))
            } else if (try? FileManager.default.attributesOfItem(atPath: folder.path)) != nil {
                warnings.append(LintProblem(file: LintPrinter.displayPath(folder), pointer: "",
                    message: "skipped: the folder cannot be listed (\(FileErrorText.reason(error))), so its contract files are not read"))
            }
            return []
        }
        return names.filter { name in
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return false }
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                // fileExists follows symlinks: false here for an entry that is listed means a dangling or looping link.
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)).map { " to \"\($0)\"" } ?? ""
                warnings.append(LintProblem(file: LintPrinter.displayPath(url), pointer: "",
                    message: "skipped: a symbolic link\(target) that leads to no file (missing, or a loop of links)"))
                return false
            }
            if isFolder.boolValue {
                warnings.append(LintProblem(file: LintPrinter.displayPath(url), pointer: "",
                    message: "skipped: a folder named like a contract file; contracts are files directly in the contracts folder"))
                return false
            }
            return true
        }.sorted()
    }

    mutating func parse(_ key: String) -> JSONValue? {
        let url = directory.appendingPathComponent(key)
        let data: Data
        do {
            if let memoryFiles {
                guard let held = memoryFiles[key] else { throw CocoaError(.fileNoSuchFile) }
                data = held
            } else {
                data = try Data(contentsOf: url)
            }
        } catch {
            problems.append(LintProblem(file: display(key), pointer: "", message: "the file cannot be read: \(FileErrorText.reason(error))"))
            return nil
        }
        contentHash.add(file: key, data: data)
        do {
            return try JSONValue(parsing: data)
        } catch {
            problems.append(LintProblem(file: display(key), syntaxError: error))
            return nil
        }
    }

    // MARK: - Contracts

    mutating func decodeContract(_ value: JSONValue, key: String) -> Contract? {
        let file = display(key)
        guard let reader = ObjectReader(value, file: file, pointer: "", what: "a contract", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: Self.contractKeys, required: ["id", "summary", "method", "path", "responses"],
                         what: "the contract", problems: &problems)
        let id = reader.string("id", problems: &problems) ?? ""
        if reader.object["id"]?.stringValue != nil, RegexCache.shared.matches("^[A-Za-z][A-Za-z0-9_]*$", id) != true {
            problems.append(LintProblem(file: file, pointer: "/id", message: "id must be an identifier such as createAnnouncement, found \"\(id)\""))
        }
        let summary = reader.string("summary", problems: &problems) ?? ""
        let method = reader.string("method", problems: &problems) ?? ""
        if reader.object["method"]?.stringValue != nil, !Self.methods.contains(method) {
            problems.append(LintProblem(file: file, pointer: "/method",
                message: "method must be one of \(Self.methods.joined(separator: ", ")) (upper case), found \"\(method)\""))
        }
        let pathText = reader.string("path", problems: &problems) ?? ""
        let template = PathTemplate(pathText)
        if reader.object["path"]?.stringValue != nil, template == nil {
            problems.append(LintProblem(file: file, pointer: "/path",
                message: "path must start with / and write parameters as whole segments such as {id}, found \"\(pathText)\""))
        }
        let pathParameters = decodePathParameters(reader, template: template, key: key)
        var request = RequestSpec.empty
        if let requestValue = reader.object["request"] {
            request = decodeRequest(requestValue, key: key) ?? .empty
        }
        var responses: [ResponseSpec] = []
        if let list = reader.object["responses"] {
            if let items = list.arrayValue, !items.isEmpty {
                for (i, item) in items.enumerated() {
                    if let response = decodeResponse(item, key: key, pointer: JSONPointer.appending("/responses", i),
                                                     request: request, template: template) {
                        responses.append(response)
                    }
                }
                var seen: Set<String> = []
                for (i, response) in responses.enumerated() where !seen.insert(response.label).inserted {
                    problems.append(LintProblem(file: file, pointer: JSONPointer.appending("/responses", i),
                        message: "the response \(response.label) is listed twice; give each its own status or code"))
                }
            } else {
                problems.append(LintProblem(file: file, pointer: "/responses", message: "responses must be a non-empty array of responses"))
            }
        }
        guard problems.count == before, let template else { return nil }
        let contract = Contract(id: id, summary: summary, method: method, pathTemplate: pathText, path: template,
                                pathParameters: pathParameters, request: request, responses: responses,
                                file: directory.appendingPathComponent(key), source: value)
        // x-state and auth x-errors are read from the decoded contract: they refer to its parameters, parts and responses.
        // The contract is kept either way, so files that refer to it (known-defects.json) are not reported as well.
        problems += StateModel.problems(of: contract, file: file)
        return contract
    }

    mutating func decodePathParameters(_ reader: ObjectReader, template: PathTemplate?, key: String) -> [ParameterSpec] {
        let declared = decodeParameters(reader.object["pathParameters"], key: key, pointer: "/pathParameters", isPath: true)
        guard let template else { return declared }
        let names = template.parameterNames
        for name in names where !declared.contains(where: { $0.name == name }) {
            problems.append(LintProblem(file: display(key), pointer: reader.object["pathParameters"] == nil ? "" : "/pathParameters",
                message: "the path parameter {\(name)} is not described in pathParameters"))
        }
        for parameter in declared where !names.contains(parameter.name) {
            problems.append(LintProblem(file: display(key), pointer: JSONPointer.appending("/pathParameters", parameter.name),
                message: "\(parameter.name) is not a parameter of the path \(template.text)"))
        }
        return names.compactMap { name in declared.first { $0.name == name } }
    }

    mutating func decodeParameters(_ value: JSONValue?, key: String, pointer: String, isPath: Bool = false) -> [ParameterSpec] {
        guard let value else { return [] }
        let file = display(key)
        guard case .object(let members) = value else {
            problems.append(LintProblem(file: file, pointer: pointer,
                message: "expected an object of name → {required, schema, description}, found \(SchemaValidator.describe(value))"))
            return []
        }
        var out: [ParameterSpec] = []
        for (name, spec) in members {
            let at = JSONPointer.appending(pointer, name)
            guard let reader = ObjectReader(spec, file: file, pointer: at, what: name, problems: &problems) else { continue }
            reader.checkKeys(allowed: Self.parameterKeys, required: ["schema"], what: name, problems: &problems)
            let required = reader.bool("required", problems: &problems) ?? isPath
            let description = reader.string("description", problems: &problems)
            guard let schema = reader.object["schema"] else { continue }
            out.append(ParameterSpec(name: name, required: required, schema: lintSchema(schema, key: key, pointer: JSONPointer.appending(at, "schema")),
                                     description: description))
        }
        return out
    }

    /// Lints a schema embedded in a contract and returns it with canonical `$ref`s.
    mutating func lintSchema(_ schema: JSONValue, key: String, pointer: String) -> JSONValue {
        guard let root = documents[key] else { return schema }
        if !checksSkipped { problems += SchemaLinter(file: display(key), validator: validator, documentKey: key, documentRoot: root).lint(schema, at: pointer) }
        return SchemaReference.canonicalize(schema, documentKey: key)
    }

    mutating func decodeRequest(_ value: JSONValue, key: String) -> RequestSpec? {
        let file = display(key)
        guard let reader = ObjectReader(value, file: file, pointer: "/request", what: "request", problems: &problems) else { return nil }
        reader.checkKeys(allowed: Self.requestKeys, required: [], what: "request", problems: &problems)
        let contentType = reader.optionalString("contentType", problems: &problems)
        var auth: AuthRequirement?
        if let authValue = reader.object["auth"], authValue != .null,
            let authReader = ObjectReader(authValue, file: file, pointer: "/request/auth", what: "auth", problems: &problems)
        {
            authReader.checkKeys(allowed: Self.authKeys, required: ["scheme"], what: "auth", problems: &problems)
            let scheme = authReader.string("scheme", problems: &problems) ?? ""
            if authReader.object["scheme"]?.stringValue != nil, !Self.authSchemes.contains(scheme) {
                problems.append(LintProblem(file: file, pointer: "/request/auth/scheme",
                    message: "scheme must be one of \(Self.authSchemes.joined(separator: ", ")), found \"\(scheme)\""))
            }
            let header = authReader.string("header", problems: &problems)
            if scheme == "apiKey", header == nil {
                problems.append(LintProblem(file: file, pointer: "/request/auth", message: "an apiKey scheme must name its header"))
            }
            auth = AuthRequirement(scheme: scheme, header: header ?? "Authorization",
                                   credentials: authReader.string("credentials", problems: &problems),
                                   description: authReader.string("description", problems: &problems),
                                   isAdmin: authReader.bool("x-admin", problems: &problems) ?? false)
        }
        let headers = decodeParameters(reader.object["headers"], key: key, pointer: "/request/headers")
        let query = decodeParameters(reader.object["query"], key: key, pointer: "/request/query")
        let body = reader.object["body"].map { lintSchema($0, key: key, pointer: "/request/body") }
        if body != nil, !(contentType.map(Self.isJSON) ?? false) {
            problems.append(LintProblem(file: file, pointer: "/request/contentType",
                message: "a request with a JSON body schema needs contentType application/json"))
        }
        var parts: [MultipartPart] = []
        if let partsValue = reader.object["parts"] {
            if contentType != "multipart/form-data" {
                problems.append(LintProblem(file: file, pointer: "/request/contentType",
                    message: "a request with parts needs contentType multipart/form-data"))
            }
            if case .object(let members) = partsValue {
                for (name, spec) in members {
                    let at = JSONPointer.appending("/request/parts", name)
                    guard let partReader = ObjectReader(spec, file: file, pointer: at, what: name, problems: &problems) else { continue }
                    partReader.checkKeys(allowed: Self.partKeys, required: ["kind"], what: "the part \(name)", problems: &problems)
                    let kind = partReader.string("kind", problems: &problems) ?? "file"
                    if !["file", "text"].contains(kind) {
                        problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at, "kind"),
                            message: "kind must be \"file\" or \"text\", found \"\(kind)\""))
                    }
                    parts.append(MultipartPart(name: name, required: partReader.bool("required", problems: &problems) ?? false,
                                               kind: kind, description: partReader.string("description", problems: &problems)))
                }
            } else {
                problems.append(LintProblem(file: file, pointer: "/request/parts",
                    message: "parts must be an object of name → {required, kind, description}"))
            }
        }
        let maxBody = reader.int("maxBodyBytes", minimum: 1, problems: &problems)
        let maxFile = reader.int("maxFileBytes", minimum: 1, problems: &problems)
        if maxFile != nil, parts.isEmpty {
            problems.append(LintProblem(file: file, pointer: "/request/maxFileBytes", message: "maxFileBytes needs multipart parts"))
        }
        let examples = reader.object["examples"].map { decodeRequestExamples($0, key: key, body: body) } ?? []
        return RequestSpec(contentType: contentType, auth: auth, headers: headers, query: query, body: body, parts: parts,
                           maxBodyBytes: maxBody, maxFileBytes: maxFile, examples: examples)
    }

    static func isJSON(_ contentType: String) -> Bool {
        contentType == "application/json" || contentType.hasSuffix("+json")
    }

    mutating func decodeResponse(_ value: JSONValue, key: String, pointer: String, request: RequestSpec,
                                 template: PathTemplate?) -> ResponseSpec? {
        let file = display(key)
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "a response", problems: &problems) else { return nil }
        reader.checkKeys(allowed: Self.responseKeys, required: ["status", "when", "examples"], what: "the response", problems: &problems)
        let status = reader.int("status", minimum: 100, problems: &problems)
        if let status, status > 599 {
            problems.append(LintProblem(file: file, pointer: reader.at("status"), message: "status must be between 100 and 599, found \(status)"))
        }
        let code = reader.optionalString("code", problems: &problems)
        let when = reader.string("when", problems: &problems) ?? ""
        let contentType = reader.optionalString("contentType", problems: &problems)
        let headers = decodeParameters(reader.object["headers"], key: key, pointer: reader.at("headers"))
        let body = reader.object["body"].map { lintSchema($0, key: key, pointer: reader.at("body")) }
        if body != nil, contentType == nil {
            problems.append(LintProblem(file: file, pointer: pointer, message: "a response with a body schema needs a contentType"))
        }
        if let status, status >= 400, code == nil, body != nil {
            problems.append(LintProblem(file: file, pointer: pointer, message: "an error response needs the error code it carries (code)"))
        }
        let examples = decodeResponseExamples(reader.object["examples"], key: key, pointer: pointer, status: status, code: code,
                                              headers: headers, body: body, request: request, template: template)
        guard let status else { return nil }
        return ResponseSpec(status: status, code: code, when: when, contentType: contentType, headers: headers, body: body, examples: examples)
    }

    mutating func decodeExamples(_ value: JSONValue, key: String, pointer: String, allowRequest: Bool) -> [ContractExample] {
        let file = display(key)
        guard let items = value.arrayValue else {
            problems.append(LintProblem(file: file, pointer: pointer, message: "examples must be an array of {name, body, ...}"))
            return []
        }
        var out: [ContractExample] = []
        var names: Set<String> = []
        for (i, item) in items.enumerated() {
            let at = JSONPointer.appending(pointer, i)
            guard let reader = ObjectReader(item, file: file, pointer: at, what: "an example", problems: &problems) else { continue }
            reader.checkKeys(allowed: allowRequest ? Self.exampleKeys : Self.exampleKeys.filter { $0 != "request" && $0 != "headers" },
                             required: ["name"], what: "the example", problems: &problems)
            let name = reader.string("name", problems: &problems) ?? ""
            if !name.isEmpty, !names.insert(name).inserted {
                problems.append(LintProblem(file: file, pointer: reader.at("name"), message: "the example name \"\(name)\" is used twice in this list"))
            }
            var request: ExampleRequest?
            if allowRequest, let requestValue = reader.object["request"],
                let r = ObjectReader(requestValue, file: file, pointer: reader.at("request"), what: "an example request", problems: &problems)
            {
                r.checkKeys(allowed: Self.exampleRequestKeys, required: [], what: "the example request", problems: &problems)
                request = ExampleRequest(body: r.object["body"], rawBody: r.string("rawBody", problems: &problems),
                                         headers: r.stringMap("headers", problems: &problems),
                                         query: r.stringMap("query", problems: &problems),
                                         pathParameters: r.stringMap("pathParameters", problems: &problems))
                request?.parts = r.stringMap("parts", problems: &problems)
                for (part, kind) in request?.parts ?? [:] where !Self.examplePartKinds.contains(kind) {
                    problems.append(LintProblem(file: file, pointer: JSONPointer.appending(r.at("parts"), part),
                        message: "a part is sent as \"file\" or \"text\", found \"\(kind)\""))
                }
            }
            out.append(ContractExample(name: name, summary: reader.string("summary", problems: &problems), body: reader.object["body"],
                                       headers: reader.stringMap("headers", problems: &problems), request: request))
        }
        return out
    }

    /// The request of a response example: its path parameters must exist, and a request that
    /// succeeds must satisfy the request's body and query schemas (failing ones break them on purpose).
    mutating func checkExampleRequest(_ example: ExampleRequest, succeeds: Bool, request: RequestSpec, template: PathTemplate?,
                                      file: String, pointer: String, what: String) {
        guard !checksSkipped else { return }
        if let template {
            for name in example.pathParameters.keys.sorted() where !template.parameterNames.contains(name) {
                problems.append(LintProblem(file: file, pointer: JSONPointer.appending(JSONPointer.appending(pointer, "pathParameters"), name),
                    message: "\(what) sets the path parameter \(name), which the path \(template.text) does not have"))
            }
        }
        if example.body != nil, example.rawBody != nil {
            problems.append(LintProblem(file: file, pointer: pointer, message: "\(what) gives both body and rawBody; keep one"))
        }
        guard succeeds else { return }
        if let body = example.body, let schema = request.body {
            checkInstance(body, against: schema, file: file, pointer: JSONPointer.appending(pointer, "body"), what: what)
        }
        for (name, text) in example.query.sorted(by: { $0.key < $1.key }) {
            let at = JSONPointer.appending(JSONPointer.appending(pointer, "query"), name)
            guard let parameter = request.query.first(where: { $0.name == name }) else {
                problems.append(LintProblem(file: file, pointer: at, message: "\(what) sends the query parameter \(name), which the request does not document"))
                continue
            }
            for violation in fannedOut ? [] : validator.validate(parameter.typedValue(text), against: parameter.schema) where violation.keyword != "$ref" {
                let message = violation.message.replacingOccurrences(of: "the value", with: name)
                problems.append(LintProblem(file: file, pointer: at + violation.pointer,
                    message: "\(what) does not match its schema: \(message)"))
            }
        }
    }

    mutating func checkInstance(_ instance: JSONValue?, against schema: JSONValue, file: String, pointer: String, what: String) {
        guard !checksSkipped, !fannedOut else { return }
        guard let instance else {
            problems.append(LintProblem(file: file, pointer: pointer, message: "\(what) has no body to check against the schema"))
            return
        }
        // An unresolved $ref is already reported where the schema says it.
        for violation in validator.validate(instance, against: schema) where violation.keyword != "$ref" {
            problems.append(LintProblem(file: file, pointer: pointer + violation.pointer,
                message: "\(what) does not match its schema: \(violation.message)"))
        }
    }

    mutating func checkUniqueness(_ contracts: [Contract]) {
        var ids: [String: Contract] = [:]
        var routes: [String: Contract] = [:]
        for contract in contracts {
            let file = LintPrinter.displayPath(contract.file)
            if let first = ids[contract.id] {
                problems.append(LintProblem(file: file, pointer: "/id",
                    message: "the id \(contract.id) is already used by \(LintPrinter.displayPath(first.file))"))
            } else {
                ids[contract.id] = contract
            }
            let shape = contract.method + " " + contract.path.segments.map { segment -> String in
                if case .literal(let literal) = segment { return literal } else { return "{}" }
            }.joined(separator: "/")
            if let first = routes[shape] {
                problems.append(LintProblem(file: file, pointer: "/path",
                    message: "\(contract.method) \(contract.pathTemplate) is already described by \(LintPrinter.displayPath(first.file))"))
            } else {
                routes[shape] = contract
            }
        }
    }
}
