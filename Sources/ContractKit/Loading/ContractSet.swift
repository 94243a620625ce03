import Foundation

/// A loaded, lint-clean contracts folder: the contracts, the shared schemas and a validator that resolves `$ref`s between them.
public struct ContractSet: Sendable {
    /// The folder the contracts came from.
    public let directory: URL
    /// Every contract, ordered by file name.
    public let contracts: [Contract]
    /// Shared schemas by file name without extension, with canonical `$ref`s.
    public let schemas: [String: JSONValue]
    /// The validator that knows every shared schema.
    public let validator: SchemaValidator
    /// The documented answers the real server is known to get wrong (`known-defects.json`); empty without that file.
    public var knownDefects: [KnownDefect] = []
    /// Entries of the folder that were skipped although named like contract files (see `ContractLoader.warnings`).
    public var warnings: [LintProblem] = []
    /// The keys the server under test was deployed with, as this run was given them (`--secret`); never from a file.
    public var deploymentSecrets = DeploymentSecrets()
    /// Each contract's request schemas compiled at load, by contract id: the per-request check walks no schema (issue 23).
    public let requestChecks: [String: CompiledRequestCheck]
    /// Each contract's `x-state` and auth `x-errors` compiled at load: the stateful endpoints' executor reads only these.
    public let state: StateModel
    /// Each contract's request rules (`x-errors`, `x-trim`, `x-parse`, …) compiled at load, by contract id: the answers
    /// the model gives to a body or query that breaks them, without walking a schema per request.
    public let requestRules: [String: RequestRules]
    /// `service.json`: what the server does around every endpoint; plain defaults when the folder has none.
    public let service: ServiceFile
    /// Every contract's routes (path and `x-also-at`), compiled once under the service file's routing.
    public let routes: RouteTable
    /// Each contract's index in `contracts` by id (the first, should two share one; lint refuses that).
    private let positions: [String: Int]

    /// A contract set from loaded parts; compiles every contract's request check.
    public init(directory: URL, contracts: [Contract], schemas: [String: JSONValue], validator: SchemaValidator,
                knownDefects: [KnownDefect] = [], warnings: [LintProblem] = [], service: ServiceFile = .plain) {
        self.init(directory: directory, contracts: contracts, schemas: schemas, validator: validator, knownDefects: knownDefects,
                  warnings: warnings, service: service, requestRules: nil)
    }

    /// A contract set whose request rules the loader already compiled (nil: compiled here).
    init(directory: URL, contracts: [Contract], schemas: [String: JSONValue], validator: SchemaValidator,
         knownDefects: [KnownDefect], warnings: [LintProblem], service: ServiceFile, requestRules: [String: RequestRules]?) {
        self.directory = directory
        self.service = service
        self.routes = RouteTable(contracts: contracts, service: service)
        self.warnings = warnings
        self.contracts = contracts
        positions = Dictionary(contracts.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.schemas = schemas
        self.validator = validator
        self.knownDefects = knownDefects
        var checks: [String: CompiledRequestCheck] = [:]
        for contract in contracts { checks[contract.id] = CompiledRequestCheck(contract, validator: validator) }
        requestChecks = checks
        state = StateModel(contracts: contracts, validator: validator)
        if let requestRules {
            self.requestRules = requestRules
        } else {
            var compiler = RuleCompiler(validator: validator)
            var rules: [String: RequestRules] = [:]
            for contract in contracts { rules[contract.id] = compiler.compile(contract, documentKey: contract.file.lastPathComponent) }
            self.requestRules = rules
        }
    }

    /// For a set loaded from OpenAPI documents: where each contract file came from in them (nil for a folder).
    public internal(set) var openAPISource: OpenAPISourceMap?

    /// Whether `url` names an OpenAPI document (a file) rather than a contracts folder.
    public static func isDocument(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    /// Loads OpenAPI documents (3.0 or 3.1, YAML or JSON, `$ref`s across files followed) as a contract set: translated
    /// into the contract folder they describe and loaded by the folder loader, so the compiled model is the same.
    /// `basePath` overrides the documents' `servers` path. The document's warnings are the set's `warnings`.
    /// `prefixRewrite` puts `to` in place of `from` at the start of every path that has it (after `basePath`).
    public static func load(documents: [URL], basePath: String? = nil,
                            prefixRewrite: (from: String, to: String)? = nil) throws(ContractLoadError) -> ContractSet {
        // The translation loads its folder once; that load is the set.
        try OpenAPIFolder.translate(documents: documents, basePath: basePath, prefixRewrite: prefixRewrite).contracts
    }

    /// The set `loader` loads from `directory`, with `warnings` (nil: the loader's own); throws every problem it found.
    static func loaded(by loader: inout ContractLoader, directory: URL, warnings: [LintProblem]? = nil) throws(ContractLoadError) -> ContractSet {
        let (contracts, schemas) = loader.load()
        guard loader.problems.isEmpty else { throw ContractLoadError(directory: directory, problems: loader.problems) }
        var set = ContractSet(directory: loader.directory, contracts: contracts, schemas: schemas, validator: loader.validator,
                              knownDefects: loader.knownDefects, warnings: warnings ?? loader.warnings, service: loader.service,
                              requestRules: loader.requestRules)
        set.lintSkipped = loader.checksSkipped
        set.unstatedRules = loader.unstatedRules
        return set
    }

    /// Properties and query parameters with rules but no `x-errors` (a `lint` warning, not a problem).
    public internal(set) var unstatedRules: [LintProblem] = []

    /// Whether this load skipped the schema lint and example checks because `cache` vouched for the same content.
    public private(set) var lintSkipped = false

    /// Loads and lints a contracts folder; throws ContractLoadError listing every problem if any. With a `cache`, content
    /// that this build loaded lint-clean before is not linted again (`lintSkipped`), and a clean load is recorded.
    public static func load(from directory: URL, cache: ContractLintCache? = nil) throws(ContractLoadError) -> ContractSet {
        // A file is an OpenAPI document; only then is any OpenAPI code run (the folder's start time stays as it was).
        if isDocument(directory) { return try load(documents: [directory]) }
        var loader = ContractLoader(directory: directory)
        loader.cache = cache
        return try loaded(by: &loader, directory: directory)
    }

    /// Every problem in a contracts folder, in file order; [] means it is clean.
    public static func lint(directory: URL) -> [LintProblem] {
        var loader = ContractLoader(directory: directory)
        _ = loader.load()
        return loader.problems
    }

    /// The entries of a contracts folder that look like contract or schema files but are skipped (folders, dangling or
    /// looping symlinks); found without loading anything, so a folder that fails to load still gets them.
    public static func warnings(directory: URL) -> [LintProblem] {
        var loader = ContractLoader(directory: directory)
        _ = loader.jsonFiles(in: directory)
        _ = loader.jsonFiles(in: directory.appendingPathComponent("schemas"))
        return loader.warnings
    }

    /// The contracts folder bundled with this checkout (found from #filePath: <repo>/contracts).
    public static var bundledDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Loading
            .deletingLastPathComponent()  // ContractKit
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // repository
            .appendingPathComponent("contracts")
    }

    /// The contract with this id.
    public func contract(id: String) -> Contract? {
        positions[id].map { contracts[$0] }
    }

    /// `match(method:path:)`, trying first the contract the request was routed to (its id, `routed`): one template
    /// instead of every contract's, on every exchange the monitor checks. When that contract's own path does not match
    /// the path as sent (a mount, another case), the full match decides; where it does, the full match would pick it too,
    /// for both prefer the template with the most literal segments and, among equals, the first contract.
    public func match(method: String, path: String, routed: String?) -> ContractMatch? {
        if let routed, let index = positions[routed], contracts[index].method == method, let parameters = contracts[index].path.match(path) {
            return ContractMatch(contract: contracts[index], parameters: parameters)
        }
        return match(method: method, path: path)
    }

    /// The contract whose method and path template match, with the path parameters.
    public func match(method: String, path: String) -> ContractMatch? {
        // Methods arrive upper-case (NIO's, the journal's): no new string then.
        let upper = method.utf8.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) ? method.uppercased() : method
        // By index: binding each contract to a local copied the whole struct (every field retained) per candidate, on
        // every exchange the monitor checks; only the winner is copied out.
        var best: (index: Int, parameters: [String: String])?
        let segments = PathTemplate.segmentCount(of: path)
        for index in contracts.indices where contracts[index].method == upper && contracts[index].path.segments.count == segments {
            guard let parameters = contracts[index].path.match(path) else { continue }
            if let current = best, contracts[current.index].path.literalCount >= contracts[index].path.literalCount { continue }
            best = (index, parameters)
        }
        if let best { return ContractMatch(contract: contracts[best.index], parameters: best.parameters) }
        // Then the service's routing: `x-also-at` mounts and its case and slash rules. Never for HEAD or OPTIONS, whose
        // answers (no body, a preflight) a GET contract or none does not describe.
        guard upper != "HEAD", upper != "OPTIONS", case .endpoint(_, let id, let parameters) = routes.resolve(method: upper, path: path),
            let contract = contract(id: id) else { return nil }
        return ContractMatch(contract: contract, parameters: parameters)
    }

    /// The contracts whose `x-state` declaration does `action`, in contract order. Generated requests are chosen from
    /// this, never from `state.declarations` (a dictionary, whose order changes with each process's hash seed), so one
    /// seed sends the same requests in every process: a recorded baseline and its replay stay in step.
    public func contracts(doing action: StateDeclaration.Action) -> [Contract] {
        contracts.filter { state.declaration(for: $0.id)?.action == action }
    }

    /// The contracts whose path matches, whatever their method (to tell 404 from 405).
    public func contracts(matchingPath path: String) -> [Contract] {
        contracts.filter { $0.path.match(path) != nil }
    }

    /// Validates against a schema (which may contain $refs into contracts/schemas); [] means valid.
    public func validate(_ value: JSONValue, against schema: JSONValue) -> [SchemaViolation] {
        validator.validate(value, against: schema)
    }

    /// A shared schema by file name without extension, e.g. "Announcement".
    public func schema(named name: String) -> JSONValue? {
        schemas[name]
    }

    /// The shared schema's name a `$ref` points into: its file name without `.json` (`../schemas/Announcement.json#/x`
    /// is `Announcement`); the one place a reference becomes a name.
    public static func sharedSchemaName(of reference: String) -> String {
        let (file, _) = SchemaReference.split(reference)
        let last = file.split(separator: "/").last.map(String.init) ?? file
        return last.hasSuffix(".json") ? String(last.dropLast(5)) : last
    }

    /// What a `$ref` to a shared schema points at (the fragment followed, when it has one); nil when it does not resolve.
    public func referencedSchema(_ reference: String) -> JSONValue? {
        let (_, fragment) = SchemaReference.split(reference)
        guard let document = schema(named: Self.sharedSchemaName(of: reference)) else { return nil }
        return fragment.isEmpty ? document : JSONPointer.resolve(fragment, in: document)
    }

    /// `schema` with one `$ref` to a shared schema followed; `schema` itself when it is no reference or does not resolve.
    public func followingReference(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue else { return schema }
        return referencedSchema(reference) ?? schema
    }
}
