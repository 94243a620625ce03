import Foundation

/// The contract folder one or more OpenAPI documents describe, lint-clean: what `serve --contracts doc.yaml` loads
/// and `import openapi` writes. Examples that break their own schema and answers left without any example are taken
/// out before the folder is loaded (`OpenAPIExampleCheck`), each with a warning; the folder loader then runs once, and
/// whatever it refuses is an error at the document's line.
public struct OpenAPIFolder: Sendable {
    /// The root documents.
    public let documents: [URL]
    /// Every file of the folder: path relative to the folder → content.
    public let files: [String: JSONValue]
    /// What is served around, left out, or contradicts itself, each at its document file, line, column and pointer.
    public let warnings: [LintProblem]
    /// Where each contract came from.
    public let sourceMap: OpenAPISourceMap
    /// The folder as its one load read it: the contract set `serve --contracts doc.yaml` serves.
    public let contracts: ContractSet

    /// The folder's files as the bytes `import openapi` writes (two-space JSON, a final newline).
    public var fileData: [String: Data] { Self.fileData(files) }

    /// The bytes of `files` as written, and as the load reads them: two-space JSON, a final newline.
    static func fileData(_ files: [String: JSONValue]) -> [String: Data] {
        files.mapValues { Data(($0.serialized(pretty: true) + "\n").utf8) }
    }

    /// At most this many rounds of pruning: each round's changes (an answer left without examples, the example made
    /// for it) are checked in the next; a document needs three or four, and a cycle cannot keep the load from running.
    static let pruningRounds = 16

    /// Translates `documents` (YAML or JSON, OpenAPI 3.0 or 3.1, `$ref`s across files followed); `basePath` overrides
    /// each document's `servers` path; `prefixRewrite` then puts `to` in place of `from` at the start of every path that
    /// has it. Throws every problem that stops the load, each at its document place.
    public static func translate(documents: [URL], basePath: String? = nil,
                                 prefixRewrite: (from: String, to: String)? = nil) throws(ContractLoadError) -> OpenAPIFolder {
        try translate(documents: documents, basePath: basePath, prefixRewrite: prefixRewrite,
                      makingLoader: ContractLoader.init(directory:files:))
    }

    /// `translate(documents:basePath:prefixRewrite:)` with the folder loader made by `makingLoader` (the folder's
    /// directory, its files' bytes), so a test can count the loads: one.
    static func translate(documents: [URL], basePath: String? = nil, prefixRewrite: (from: String, to: String)? = nil,
                          makingLoader: (URL, [String: Data]) -> ContractLoader) throws(ContractLoadError) -> OpenAPIFolder {
        let directory = documents.first?.standardizedFileURL ?? URL(fileURLWithPath: "openapi")
        var translator = OpenAPITranslator(fileSet: OpenAPIFileSet(), basePathOverride: basePath.map(Self.normalized))
        translator.prefixRewrite = prefixRewrite
        do {
            try translator.translate(roots: documents.map(\.standardizedFileURL))
        } catch {
            throw ContractLoadError(directory: directory, problems: [error.lintProblem])
        }
        translator.finish()
        var files = translator.folder
        let original = files
        var sourceMap = translator.sourceMap
        var warnings = translator.warnings.map(\.lintProblem)
        // An example the loader would refuse, or an answer left without any, is the document contradicting itself: it
        // is found by the loader's own example checks before the load and left out (or replaced) with a warning. What
        // a change brings (an answer whose examples all went, the example made for it) is checked in the next round,
        // in the contracts that changed only; a round finds the problems a whole load of the folder would have.
        let check = OpenAPIExampleCheck(directory: directory)
        var keys = Array(files.keys)
        for _ in 0..<Self.pruningRounds {
            let findings = check.findings(in: files, keys: keys)
            guard !findings.isEmpty else { break }
            var pruner = OpenAPIPruner(files: files, sourceMap: sourceMap, original: original)
            var changedKeys: Set<String> = []
            for finding in findings {
                guard let warning = pruner.prune(finding.problem, key: finding.key) else { continue }
                warnings.append(warning)
                changedKeys.insert(finding.key)
            }
            pruner.apply()
            guard pruner.changed else { break }
            files = pruner.files
            sourceMap = pruner.sourceMap
            keys = Array(changedKeys)
        }
        // The one load: whatever it still refuses is an error at the document's place.
        var loader = makingLoader(directory, Self.fileData(files))
        var set: ContractSet
        do {
            set = try ContractSet.loaded(by: &loader, directory: directory, warnings: Self.unique(warnings))
        } catch {
            var keyOfDisplay: [String: String] = [:]
            for key in files.keys { keyOfDisplay[LintPrinter.displayPath(directory.appendingPathComponent(key))] = key }
            let fatal = loader.problems.map { problem in keyOfDisplay[problem.file].map { sourceMap.problem(problem, key: $0) } ?? problem }
            // The warnings too: what was left out may be why the rest does not load.
            let notes = Self.unique(warnings).map { LintProblem(file: $0.file, line: $0.line, column: $0.column, pointer: $0.pointer, message: "(warning) " + $0.message) }
            throw ContractLoadError(directory: directory, problems: fatal + notes)
        }
        set.openAPISource = sourceMap
        return OpenAPIFolder(documents: documents, files: files, warnings: Self.unique(warnings), sourceMap: sourceMap, contracts: set)
    }

    /// `/api/v1/` and `api/v1` → `/api/v1`; `/` → "".
    static func normalized(_ basePath: String) -> String {
        var path = basePath.trimmingCharacters(in: .whitespaces)
        while path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty || path.hasPrefix("/") ? path : "/" + path
    }

    static func unique(_ problems: [LintProblem]) -> [LintProblem] {
        var seen: Set<LintProblem> = []
        return problems.filter { seen.insert($0).inserted }
    }
}

extension OpenAPISourceMap {
    /// A folder loader's problem at the document place it came from.
    func problem(_ problem: LintProblem, key: String) -> LintProblem {
        guard let place = locate(key: key, pointer: problem.pointer) else { return problem }
        return LintProblem(file: place.file, line: place.line, column: place.column, pointer: place.pointer, message: problem.message)
    }
}
