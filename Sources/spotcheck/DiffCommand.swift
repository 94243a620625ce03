import ArgumentParser
import CIReports
import MockCommands
import ContractKit
import ContractModel
import Foundation

/// `spotcheck diff OLD NEW`: classifies contract changes as breaking or compatible for existing clients.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Classify contract changes between two versions as breaking or compatible.",
        discussion: """
            Compares two contract folders (or, with --base-ref, the contracts/ folder at a git revision with the \
            working copy). Exit 0 when nothing breaks, 1 on a breaking change (unless --allow-breaking), 2 on bad input.
            """
    )

    @Argument(help: "The old and new contract folders or OpenAPI documents (several separated by commas); with --base-ref only the new one (default: contracts).")
    var folders: [String] = []

    @Option(help: ArgumentHelp("For OpenAPI documents: the path every operation's path is under, instead of the one servers gives (both sides).", valueName: "path"))
    var basePath: String?

    @Option(name: .customLong("base-ref"), help: "Compare against the contracts folder at this git revision (e.g. origin/main).")
    var baseRef: String?

    @Flag(name: .customLong("allow-breaking"), help: "Report breaking changes but exit 0.")
    var allowBreaking = false

    @Flag(help: "Print the changes as JSON instead of text.")
    var json = false

    @OptionGroup var ci: CIReportOptions

    @OptionGroup var sarifOption: SARIFOption

    func validate() throws {
        if baseRef == nil && folders.count != 2 {
            throw ValidationError("give two contract folders (OLD NEW), or --base-ref REV and at most one folder")
        }
        if baseRef != nil && folders.count > 1 {
            throw ValidationError("with --base-ref give at most one folder (the new contracts)")
        }
    }

    func run() throws {
        try execute(environment: ProcessInfo.processInfo.environment).finish()
    }

    /// Loads both versions, compares them, writes the CI reports asked for, and says what to print and how to exit;
    /// `environment` decides the GitHub outputs.
    func execute(environment: [String: String] = [:]) -> CommandOutcome {
        let started = Date()
        var oldURL: URL
        var oldLabel: String
        var extracted: GitRevisionFolder?
        defer { extracted?.remove() }
        let newPath = baseRef != nil ? (folders.first ?? "contracts") : folders[1]
        let newURL = URL(fileURLWithPath: newPath)
        if let baseRef {
            do {
                extracted = try GitRevisionFolder.extract(newURL, at: baseRef)
            } catch {
                return CommandOutcome(output: "spotcheck diff: \(error.description)\n", exitCode: 2)
            }
            oldURL = extracted?.url ?? newURL
            oldLabel = "\(newPath) at \(baseRef)"
        } else {
            oldURL = URL(fileURLWithPath: folders[0])
            oldLabel = folders[0]
        }
        let old: ContractSet
        let new: ContractSet
        do {
            old = try Self.load(baseRef != nil ? oldURL.path : folders[0], url: oldURL, basePath: basePath)
            new = try Self.load(newPath, url: newURL, basePath: basePath)
        } catch {
            return CommandOutcome(output: "spotcheck diff: cannot compare, " + error.description + "\n", exitCode: 2)
        }
        var changes = Self.atDocumentPlaces(ContractDiff.compare(old: old, new: new), sets: [old, new])
        if let extracted, let baseRef {
            // Removed endpoints live only in the temporary copy; name them by revision instead.
            let prefix = LintPrinter.displayPath(extracted.url) + "/"
            changes = changes.map { change in
                guard change.file.hasPrefix(prefix) else { return change }
                return ContractChange(severity: change.severity, kind: change.kind, contract: change.contract,
                                      file: "\(baseRef):\(newPath)/\(change.file.dropFirst(prefix.count))",
                                      pointer: change.pointer, message: change.message)
            }
        }
        let breaking = changes.filter { $0.severity == .breaking }.count
        let exitCode: Int32 = breaking > 0 && !allowBreaking ? 1 : 0
        var annotations = ""
        let ciMessage = ci.request(environment: environment, sarif: sarifOption.sarif).write(print: { annotations += $0 + "\n" }) { locator in
            DiffCIResults.report(changes, allowBreaking: allowBreaking, facts: ["\(oldLabel) → \(newPath)"], start: started, locator: &locator)
        }
        let safe = { (text: String) in WorkflowCommandGuard.text(text, in: environment) }
        if let ciMessage { return CommandOutcome(output: annotations + safe("spotcheck diff: \(ciMessage)\n"), exitCode: 2) }
        // Annotations are workflow commands on standard output; a --json document stays alone there.
        if json {
            return CommandOutcome(output: Self.renderJSON(changes, old: oldLabel, new: newPath) + "\n", exitCode: exitCode, diagnostics: annotations)
        }
        return CommandOutcome(output: annotations + safe(Self.renderText(changes, old: oldLabel, new: newPath, allowBreaking: allowBreaking)), exitCode: exitCode)
    }

    /// A folder, or the OpenAPI documents `argument` names (comma-separated), with `basePath` for documents.
    static func load(_ argument: String, url: URL, basePath: String?) throws(ContractLoadError) -> ContractSet {
        if let documents = InputFolder.documents(argument) { return try ContractSet.load(documents: documents, basePath: basePath) }
        if basePath != nil { return try InputFolder.load(argument, basePath: basePath) }
        return try ContractSet.load(from: url)
    }

    /// Each change about a set translated from OpenAPI documents, named at the document's file, line, column and pointer
    /// instead of the translated contract file nobody wrote.
    static func atDocumentPlaces(_ changes: [ContractChange], sets: [ContractSet]) -> [ContractChange] {
        changes.map { change in
            for set in sets {
                guard let map = set.openAPISource else { continue }
                let prefix = LintPrinter.displayPath(set.directory) + "/"
                guard change.file.hasPrefix(prefix),
                    let place = map.location(ofContractFile: String(change.file.dropFirst(prefix.count)), pointer: change.pointer)
                else { continue }
                let file = place.file + (place.line.map { ":\($0)" } ?? "") + (place.column.map { ":\($0)" } ?? "")
                return ContractChange(severity: change.severity, kind: change.kind, contract: change.contract, file: file,
                                      pointer: place.pointer, message: change.message)
            }
            return change
        }
    }

    static func renderText(_ changes: [ContractChange], old: String, new: String, allowBreaking: Bool) -> String {
        let breaking = changes.filter { $0.severity == .breaking }.count
        var lines = ["Comparing \(old) → \(new)"]
        lines += changes.map(\.description)
        var summary = "\(breaking) breaking, \(changes.count - breaking) compatible change\(changes.count - breaking == 1 ? "" : "s")"
        if changes.isEmpty { summary = "no changes" }
        if breaking > 0 { summary += allowBreaking ? " (breaking changes allowed by --allow-breaking)" : "; existing clients may break" }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    static func renderJSON(_ changes: [ContractChange], old: String, new: String) -> String {
        let items: [JSONValue] = changes.map { change in
            [
                "severity": .string(change.severity.rawValue), "kind": .string(change.kind.rawValue),
                "contract": .string(change.contract), "file": .string(change.file), "pointer": .string(change.pointer),
                "message": .string(change.message),
            ]
        }
        let breaking = changes.filter { $0.severity == .breaking }.count
        let document: JSONValue = [
            "old": .string(old), "new": .string(new), "breaking": .number(Double(breaking)),
            "compatible": .number(Double(changes.count - breaking)), "changes": .array(items),
        ]
        return document.serialized(pretty: true)
    }
}
