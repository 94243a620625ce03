import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import MockCommands

/// `spotcheck import openapi FILE... --into DIR`: the contract folder OpenAPI documents describe, in SpotCheck's own
/// format, lint-clean, written all at once or not at all.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write the contract folder that OpenAPI documents (3.0 or 3.1, YAML or JSON) describe (docs/openapi.md).",
        discussion: """
            Each operation becomes a contract file, each shared schema a file under schemas/, and the document-level \
            x-service, x-known-defects and x-fixtures become service.json, known-defects.json and fixtures/. What cannot be \
            served is printed as a warning on standard error (with --strict it fails the import). DIR must not exist or be \
            empty; nothing is written when anything fails. Exit 0 written, 2 on a document that cannot be read or a DIR in use.
            """
    )

    @Argument(help: "The OpenAPI documents (several are merged into one folder).")
    var files: [String]

    @Option(help: ArgumentHelp("The contract folder to write.", valueName: "dir"))
    var into: String

    @Option(help: ArgumentHelp("The path every operation's path is under, instead of the one servers gives (e.g. /api/v1).", valueName: "path"))
    var basePath: String?

    @Flag(help: "Fail on warnings too (parts of the document that cannot be served, contradictions).")
    var strict = false

    func run() throws {
        try Self.execute(files: files, into: into, basePath: basePath, strict: strict).finish()
    }

    /// Imports and says what to print and how to exit.
    static func execute(files: [String], into: String, basePath: String? = nil, strict: Bool = false) -> CommandOutcome {
        let folder: OpenAPIFolder
        do {
            folder = try OpenAPIFolder.translate(documents: files.map { URL(fileURLWithPath: $0) }, basePath: basePath)
        } catch {
            return CommandOutcome(output: LintPrinter.render(error.problems), exitCode: 2)
        }
        let warnings = folder.warnings.map { "spotcheck import openapi: warning: \($0)\n" }.joined()
        if strict, !folder.warnings.isEmpty {
            return CommandOutcome(output: LintPrinter.render(folder.warnings) + "spotcheck import openapi: --strict: nothing written\n", exitCode: 2)
        }
        let destination = URL(fileURLWithPath: into)
        do {
            try FolderPlanWriter.write(folder.fileData, into: destination)
        } catch {
            return CommandOutcome(output: "spotcheck import openapi: \(error)\n", exitCode: 2, diagnostics: warnings)
        }
        let contracts = folder.files.keys.filter { !$0.contains("/") && $0 != ServiceFile.fileName && $0 != KnownDefect.fileName }.count
        let schemas = folder.files.keys.filter { $0.hasPrefix("schemas/") }.count
        return CommandOutcome(output: "\(into): \(contracts) contract\(contracts == 1 ? "" : "s"), \(schemas) shared schema\(schemas == 1 ? "" : "s") written\n",
                              exitCode: 0, diagnostics: warnings)
    }
}

/// Writes a planned folder (relative path → bytes) as one `FileTransaction` rooted beside the destination: every file
/// is staged first, then moved into place; a failure rolls back what was moved, and a killed import is rolled back by
/// the next one, so the folder is either fully written or not there at all.
enum FolderPlanWriter {
    /// Why the plan was not written.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func write(_ plan: [String: Data], into destination: URL) throws(Failure) {
        let files = FileManager.default
        let destination = destination.standardizedFileURL
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: destination.path, isDirectory: &isFolder) {
            guard isFolder.boolValue, (try? files.contentsOfDirectory(atPath: destination.path))?.isEmpty == true else {
                throw Failure(description: "\(destination.path) already exists and is not an empty folder; choose a new --into")
            }
        }
        let parent = destination.deletingLastPathComponent()
        do {
            try files.createDirectory(at: parent, withIntermediateDirectories: true)
            let transaction = try FileTransaction(root: parent)
            for (key, data) in plan.sorted(by: { $0.key < $1.key }) {
                try transaction.stage(destination.lastPathComponent + "/" + key, data)
            }
            try transaction.commit()
        } catch let error as FileTransactionError {
            let restored = error.rolledBack.isEmpty ? "nothing was written" : "rolled back: \(error.rolledBack.joined(separator: ", "))"
            throw Failure(description: "could not write \(error.path): \(error.reason); \(restored)")
        } catch {
            throw Failure(description: "could not write \(destination.path): \(FileErrorText.reason(error)); nothing was written")
        }
    }
}
