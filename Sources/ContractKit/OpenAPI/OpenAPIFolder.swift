import Foundation

/// The contract folder one or more OpenAPI documents describe, lint-clean: what `serve --contracts doc.yaml` loads
/// and `import openapi` writes. Examples that break their own schema and answers left without any example are taken
/// out, each with a warning; whatever else the folder loader refuses is an error at the document's line.
public struct OpenAPIFolder: Sendable {
    /// The root documents.
    public let documents: [URL]
    /// Every file of the folder: path relative to the folder → content.
    public let files: [String: JSONValue]
    /// What is served around, left out, or contradicts itself, each at its document file, line, column and pointer.
    public let warnings: [LintProblem]
    /// Where each contract came from.
    public let sourceMap: OpenAPISourceMap

    /// The folder's files as the bytes `import openapi` writes (two-space JSON, a final newline).
    public var fileData: [String: Data] {
        files.mapValues { Data(($0.serialized(pretty: true) + "\n").utf8) }
    }

    /// Translates `documents` (YAML or JSON, OpenAPI 3.0 or 3.1, `$ref`s across files followed); `basePath` overrides
    /// each document's `servers` path; `prefixRewrite` then puts `to` in place of `from` at the start of every path that
    /// has it. Throws every problem that stops the load, each at its document place.
    public static func translate(documents: [URL], basePath: String? = nil,
                                 prefixRewrite: (from: String, to: String)? = nil) throws(ContractLoadError) -> OpenAPIFolder {
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
        // The folder loader judges the translation exactly as it judges a folder; what it refuses in an example or an
        // answer is the document contradicting itself: that example (or answer) is left out and the rest reloaded.
        for _ in 0..<16 {
            var loader = ContractLoader(directory: directory, files: files.mapValues { $0.data() })
            _ = loader.load()
            guard !loader.problems.isEmpty else { break }
            var keyOfDisplay: [String: String] = [:]
            for key in files.keys { keyOfDisplay[LintPrinter.displayPath(directory.appendingPathComponent(key))] = key }
            var pruner = OpenAPIPruner(files: files, sourceMap: sourceMap, original: original)
            var fatal: [LintProblem] = []
            for problem in loader.problems {
                guard let key = keyOfDisplay[problem.file] else { fatal.append(problem); continue }
                if let warning = pruner.prune(problem, key: key) {
                    warnings.append(warning)
                } else {
                    fatal.append(sourceMap.problem(problem, key: key))
                }
            }
            pruner.apply()
            guard pruner.changed else {
                // The warnings too: what was left out may be why the rest does not load.
                let notes = Self.unique(warnings).map { LintProblem(file: $0.file, line: $0.line, column: $0.column, pointer: $0.pointer, message: "(warning) " + $0.message) }
                throw ContractLoadError(directory: directory, problems: fatal + notes)
            }
            // What else the loader said may follow from the pruned parts: load again.
            files = pruner.files
            sourceMap = pruner.sourceMap
        }
        return OpenAPIFolder(documents: documents, files: files, warnings: Self.unique(warnings), sourceMap: sourceMap)
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
