import Foundation

/// Recordings (`spotcheck proxy --record DIR`) checked and merged into a contracts folder as response examples.
///
/// A recording folder has the layout of a contracts folder, so both steps reuse the contract loader: lint is the
/// loader's lint plus a problem per recorded example that broke its contract; merge appends chosen examples to the
/// matching documented answers and keeps the result only if the contracts folder still lints clean.
public enum RecordingMerge {
    /// The example key under which a recording lists the violations its exchange showed.
    public static let violationsKey = "x-spotcheck-violations"

    /// What a merge did.
    public struct Outcome: Sendable, Equatable {
        /// `contract status[ code]: example name` for each example added.
        public var merged: [String] = []
        /// Examples left out, each with the reason.
        public var skipped: [String] = []
    }

    /// Why a merge could not run or was rolled back.
    public struct MergeError: Error, Sendable, CustomStringConvertible {
        /// The problems, one sentence each.
        public let problems: [String]
        /// All problems, one per line.
        public var description: String { problems.joined(separator: "\n") }
    }

    /// Every problem of a recording folder: the loader's lint (examples against schemas) plus recorded violations.
    public static func lint(directory: URL) -> [LintProblem] {
        var problems = ContractSet.lint(directory: directory)
        for file in contractFiles(in: directory) {
            guard let value = try? JSONValue(parsing: Data(contentsOf: file)) else { continue }
            for (r, response) in (value["responses"]?.arrayValue ?? []).enumerated() {
                for (e, example) in (response["examples"]?.arrayValue ?? []).enumerated() {
                    for (v, violation) in (example[violationsKey]?.arrayValue ?? []).enumerated() {
                        let side = violation["side"]?.stringValue ?? "?"
                        problems.append(LintProblem(
                            file: file.lastPathComponent, pointer: "/responses/\(r)/examples/\(e)/\(violationsKey)/\(v)",
                            message: "the recorded exchange broke its contract (\(side) side) at \(violation["pointer"]?.stringValue ?? "?"): expected \(violation["expected"]?.stringValue ?? "?"), got \(violation["got"]?.stringValue ?? "?")"))
                    }
                }
            }
        }
        return problems
    }

    /// The contract files a merge would write, with the outcome it would report; nothing is written yet.
    public struct Plan: Sendable {
        /// What the merge adds and leaves out.
        public var outcome: Outcome
        /// Each contract file to replace, as a path relative to the contracts folder, with its new text.
        public var edits: [(relativePath: String, data: Data)]
    }

    /// Appends the recorded examples chosen by `selectors` (`contract`, `contract:status` or `contract:status:CODE`;
    /// empty takes all) to the matching answers in `contracts`. Examples that broke their contract, and answers the
    /// contracts do not document, are skipped. Throws, leaving `contracts` untouched, when either folder does not lint.
    /// The files are replaced through one `FileTransaction`: all of them or none, even when the process is killed.
    public static func merge(recordings: URL, into contracts: URL, selectors: [String] = []) throws(MergeError) -> Outcome {
        let plan = try plan(recordings: recordings, into: contracts, selectors: selectors)
        guard !plan.edits.isEmpty else { return plan.outcome }
        do {
            let transaction = try FileTransaction(root: contracts)
            for edit in plan.edits { try transaction.stage(edit.relativePath, edit.data, replacing: true) }
            try transaction.commit()
        } catch {
            throw MergeError(problems: ["nothing was changed: \(error.description)"])
        }
        return plan.outcome
    }

    /// Works out a merge (see `merge`) and checks that the merged contracts lint, in a scratch copy of `contracts`.
    public static func plan(recordings: URL, into contracts: URL, selectors: [String] = []) throws(MergeError) -> Plan {
        let recordingProblems = ContractSet.lint(directory: recordings)
        if !recordingProblems.isEmpty {
            throw MergeError(problems: ["the recordings in \(recordings.path) do not lint:"] + recordingProblems.map(\.description))
        }
        let target: ContractSet
        do {
            target = try ContractSet.load(from: contracts)
        } catch {
            throw MergeError(problems: ["the contracts in \(contracts.path) do not lint:", error.description])
        }
        var outcome = Outcome()
        var edited: [URL: JSONValue] = [:]
        for file in contractFiles(in: recordings) {
            guard let recorded = try? JSONValue(parsing: Data(contentsOf: file)), let id = recorded["id"]?.stringValue else { continue }
            guard let contract = target.contract(id: id) else {
                outcome.skipped.append("\(file.lastPathComponent): no contract \(id) in \(contracts.path)")
                continue
            }
            for response in recorded["responses"]?.arrayValue ?? [] {
                let status = response["status"]?.intValue ?? 0
                let code = response["code"]?.stringValue
                let label = "\(id) \(status)" + (code.map { " \($0)" } ?? "")
                guard selected(selectors, id: id, status: status, code: code) else { continue }
                for example in response["examples"]?.arrayValue ?? [] {
                    let name = example["name"]?.stringValue ?? "recorded"
                    if example[violationsKey] != nil {
                        outcome.skipped.append("\(label): \(name): the recorded exchange broke its contract")
                        continue
                    }
                    if edited[contract.file] == nil {
                        guard let data = try? Data(contentsOf: contract.file), let value = try? JSONValue(parsing: data) else {
                            throw MergeError(problems: ["cannot read \(contract.file.path)"])
                        }
                        edited[contract.file] = value
                    }
                    guard var value = edited[contract.file], let added = append(example, status: status, code: code, to: &value) else {
                        outcome.skipped.append("\(label): \(name): the contract does not document this answer; add it by hand")
                        continue
                    }
                    edited[contract.file] = value
                    outcome.merged.append("\(label): \(added)")
                }
            }
        }
        let base = contracts.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        var edits: [(relativePath: String, data: Data)] = []
        for (file, value) in edited.sorted(by: { $0.key.path < $1.key.path }) {
            let full = file.standardizedFileURL.resolvingSymlinksInPath().path
            guard full.hasPrefix(base) else { throw MergeError(problems: ["\(file.path) is not inside \(contracts.path)"]) }
            edits.append((String(full.dropFirst(base.count)), Data((value.serialized(pretty: true) + "\n").utf8)))
        }
        if !edits.isEmpty {
            let after = lintEdited(contracts, edits: edits)
            if !after.isEmpty {
                throw MergeError(problems: ["the merged contracts would not lint, nothing was changed:"] + after)
            }
        }
        return Plan(outcome: outcome, edits: edits)
    }

    /// The lint of `contracts` with `edits` applied, in a scratch copy, so the real folder is only written once it lints.
    private static func lintEdited(_ contracts: URL, edits: [(relativePath: String, data: Data)]) -> [String] {
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("spotcheck-merge-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent(contracts.lastPathComponent)
        do {
            try files.createDirectory(at: scratch, withIntermediateDirectories: true)
            try files.copyItem(at: contracts, to: copy)
            for edit in edits { try edit.data.write(to: copy.appendingPathComponent(edit.relativePath)) }
        } catch {
            return ["cannot check the merged contracts in \(scratch.path): \(FileErrorText.reason(error))"]
        }
        // Problems name files relative to the folder; the scratch path is replaced by the real one for the reader.
        return ContractSet.lint(directory: copy).map { $0.description.replacingOccurrences(of: copy.path, with: contracts.path) }
    }

    /// Appends `example` (its name made unique) to the answer with `status` and `code`; the name used, or nil when there is no such answer.
    private static func append(_ example: JSONValue, status: Int, code: String?, to document: inout JSONValue) -> String? {
        guard var object = document.objectValue, var responses = object["responses"]?.arrayValue,
              let index = responses.firstIndex(where: { $0["status"]?.intValue == status && $0["code"]?.stringValue == code }),
              var response = responses[index].objectValue else { return nil }
        var examples = response["examples"]?.arrayValue ?? []
        let names = Set(examples.compactMap { $0["name"]?.stringValue })
        let base = example["name"]?.stringValue ?? "recorded"
        var name = base
        var n = 2
        while names.contains(name) { name = "\(base) (\(n))"; n += 1 }
        var copy = example.objectValue ?? JSONObject()
        copy["name"] = .string(name)
        copy["request"] = replayable(example["request"])
        examples.append(.object(copy))
        response["examples"] = .array(examples)
        responses[index] = .object(response)
        object["responses"] = .array(responses)
        document = .object(object)
        return name
    }

    /// The recorded request as `spotcheck verify` can send it to any server: per-run path ids, redacted credentials and
    /// a multipart boundary are left out (verify then fills in the announcement it created, its credentials and a photo);
    /// nil when nothing is left.
    static func replayable(_ request: JSONValue?) -> JSONValue? {
        guard var object = request?.objectValue else { return nil }
        object["pathParameters"] = nil
        if let headers = object["headers"]?.objectValue {
            let kept = headers.filter { member in
                let value = member.value.stringValue ?? ""
                return !value.contains("<redacted>") && !value.lowercased().hasPrefix("multipart/")
            }
            object["headers"] = kept.isEmpty ? nil : .object(JSONObject(kept.map { ($0.key, $0.value) }))
        }
        return object.isEmpty ? nil : .object(object)
    }

    private static func selected(_ selectors: [String], id: String, status: Int, code: String?) -> Bool {
        if selectors.isEmpty { return true }
        return selectors.contains { selector in
            let parts = selector.split(separator: ":").map(String.init)
            guard parts.first == id else { return false }
            if parts.count > 1, parts[1] != String(status) { return false }
            if parts.count > 2, parts[2] != code { return false }
            return true
        }
    }

    private static func contractFiles(in directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
