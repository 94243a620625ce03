import ContractKit
import ContractModel
import Foundation
import HTTPArchive
import MockBackend

/// `spotcheck import har`: a HAR from Proxyman, Charles, Chrome or Firefox (or SpotCheck) turned into a fixtures file,
/// contract examples (through the recordings merge) and a scenario skeleton that replays the session.
///
/// Everything is worked out before anything is written; then the scenario, the fixtures and the merged contract files
/// are written through one `FileTransaction`, so a failed or killed import leaves the project as it was.
public enum HARImport {
    /// What the import will write.
    public struct Plan: Sendable {
        /// `har-<HAR file name>`: the scenario's and the fixtures file's name.
        public var name: String
        /// Every entry that matched a contract, in order.
        public var exchanges: [ImportedExchange]
        /// Entries that matched no contract (the page, its scripts, another API), for the report.
        public var unmatched: [String]
        /// Entries whose exchange broke its contract: reported, not merged.
        public var broken: [String]
        /// Query parameters no contract declares, left out of the merged examples: `entry 2 (GET …): token`.
        public var undeclaredQuery: [String] = []
        /// `{"<collection>": [...]}`, the records the session showed.
        public var fixtures: JSONValue
        /// The scenario skeleton.
        public var scenario: JSONValue
    }

    /// What the import wrote.
    public struct Outcome: Sendable {
        /// The files created.
        public var written: [URL] = []
        /// The examples merged, as the recordings merge names them.
        public var merged: [String] = []
        /// The examples the merge left out, each with the reason.
        public var skipped: [String] = []
    }

    /// Why the import wrote nothing (or, when `partial`, why a rollback left some file changed).
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The problems, one sentence each.
        public let problems: [String]
        /// Whether the rollback failed for some file, so not everything is as it was (the problems name which).
        public var partial = false

        /// An error.
        public init(problems: [String], partial: Bool = false) {
            self.problems = problems
            self.partial = partial
        }
        /// All problems, one per line.
        public var description: String { problems.joined(separator: "\n") }
    }

    /// Reads the entries and plans the import; throws naming the entry when the HAR is unusable or from another API.
    public static func plan(_ log: HARLog, file: String, contracts: ContractSet, keepSecrets: Bool) throws(HARReadError) -> Plan {
        let validator = ExchangeValidator(contracts: contracts, knownDefects: KnownDefectList(contracts.knownDefects, contracts: contracts, multipart: MultipartKitScanner()))
        var exchanges: [ImportedExchange] = []
        var unmatched: [String] = []
        var broken: [String] = []
        let secrets = SecretNames(contracts: contracts)
        var undeclaredQuery: [String] = []
        for (index, har) in log.entries.enumerated() {
            var exchange = ImportedExchange(har, index: index, contracts: contracts)
            guard let contract = exchange.entry.contract else {
                unmatched.append(exchange.label)
                continue
            }
            // Validated as sent, redacted after: a redacted credential would fail the very check it passed.
            if exchange.entry.fault == nil, exchange.fault == nil || exchange.entry.status != nil {
                exchange.entry.violations = validator.validate(Exchange(exchange.entry), answerIsGenuine: exchange.fault == nil)
                for violation in exchange.entry.violations where violation.isViolation {
                    broken.append("\(exchange.label): broke \(contract) (\(violation.side.rawValue) side) at \(violation.pointer): expected \(violation.expected), got \(violation.got)")
                }
            }
            // A parameter the contract does not declare (a tracking id, a token) would make the merged example fail
            // lint: it is reported and left out, and the rest of the import goes on.
            if let query = exchange.entry.query, let declared = contracts.contract(id: contract)?.request.query.map(\.name) {
                let kept = Self.keepingDeclared(query, declared: Set(declared))
                for name in kept.dropped { undeclaredQuery.append("\(exchange.label): \(name)") }
                exchange.entry.query = kept.query
            }
            if !keepSecrets { exchange.entry = exchange.entry.redactingSecrets(secrets) }
            exchanges.append(exchange)
        }
        guard !exchanges.isEmpty else {
            let first = log.entries.first
            throw HARReadError(file: file, entry: first == nil ? nil : 0, url: first?.request.url, location: "",
                               message: log.entries.isEmpty ? "the HAR has no entries"
                                   : "no entry matches a contract in \(contracts.directory.path) (\(log.entries.count) entries): is this HAR from another API?")
        }
        let name = "har-" + slug(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        let fixtures = RecordFixtureHarvest.fixtures(from: exchanges.map(\.entry), contracts: contracts)
        let hasFixtures = Self.holdsRecords(fixtures)
        let scenario = HARScenarioSkeleton.document(name: name, source: URL(fileURLWithPath: file).lastPathComponent, exchanges: exchanges,
                                                    fixturesFile: hasFixtures ? name + ".json" : nil,
                                                    operations: FlowOperations(contracts: contracts, sends: []))
        var plan = Plan(name: name, exchanges: exchanges, unmatched: unmatched, broken: broken, fixtures: fixtures, scenario: scenario)
        plan.undeclaredQuery = undeclaredQuery
        return plan
    }

    /// `query` without the parameters not in `declared` (nil when none is left), and the names dropped.
    static func keepingDeclared(_ query: String, declared: Set<String>) -> (query: String?, dropped: [String]) {
        var kept: [Substring] = []
        var dropped: [String] = []
        for pair in query.split(separator: "&") {
            let raw = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let name = String(raw).removingPercentEncoding ?? String(raw)
            if declared.contains(name) { kept.append(pair) } else { dropped.append(name) }
        }
        return (kept.isEmpty ? nil : kept.joined(separator: "&"), dropped)
    }

    /// Writes `scenarios/<name>.json`, `scenarios/fixtures/<name>.json` (when any announcement was seen) and the merged
    /// contract files of `contracts` through one `FileTransaction` rooted at the project folder (the parent of
    /// `scenarios`): every file or none, even when the process is killed part way (the next import rolls a killed one
    /// back). The outcome lists exactly the files written.
    public static func write(_ plan: Plan, contracts: ContractSet, scenarios: URL) throws(WriteError) -> Outcome {
        let files = FileManager.default
        let root = scenarios.deletingLastPathComponent().standardizedFileURL
        let scenariosName = scenarios.lastPathComponent
        let scenarioPath = "\(scenariosName)/\(plan.name).json"
        let fixturesPath = "\(scenariosName)/fixtures/\(plan.name).json"
        let wantsFixtures = Self.holdsRecords(plan.fixtures)
        // Checked with lstat first (a dangling symlink counts): a refusal here comes before any work.
        for path in [scenarioPath] + (wantsFixtures ? [fixturesPath] : []) where FileTransaction.exists(root.appendingPathComponent(path)) {
            throw WriteError(problems: ["\(root.appendingPathComponent(path).path) already exists; move it away or rename the HAR file"])
        }
        let contractsBase = root.resolvingSymlinksInPath().path + "/"
        let contractsPath = contracts.directory.standardizedFileURL.resolvingSymlinksInPath().path
        guard contractsPath.hasPrefix(contractsBase) else {
            throw WriteError(problems: ["\(contracts.directory.path) is not inside \(root.path)"])
        }
        let contractsRelative = String(contractsPath.dropFirst(contractsBase.count))
        let scratch = files.temporaryDirectory.appendingPathComponent("spotcheck-import-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        var outcome = Outcome()
        do {
            let transaction = try FileTransaction(root: root)
            let recordings = scratch.appendingPathComponent("recordings")
            let recorder = try ExchangeRecorder(directory: recordings, contracts: contracts)
            // A failure the HAR captured (a 5xx, no answer) is the scenario's fault, not an answer the contract promises:
            // recorded as an example it would add an undocumented status and fail the merge of the whole session.
            for exchange in plan.exchanges where exchange.fault == nil && !exchange.entry.violations.contains(where: \.isViolation) {
                recorder.record(exchange.entry)
            }
            if let problem = recorder.errors.first { throw WriteError(problems: [problem]) }
            try transaction.stage(scenarioPath, Data((plan.scenario.serialized(pretty: true) + "\n").utf8))
            if wantsFixtures { try transaction.stage(fixturesPath, Data((plan.fixtures.serialized(pretty: true) + "\n").utf8)) }
            if ((try? files.contentsOfDirectory(atPath: recordings.path)) ?? []).contains(where: { $0.hasSuffix(".json") }) {
                let merge = try RecordingMerge.plan(recordings: recordings, into: contracts.directory)
                outcome.merged = merge.outcome.merged
                outcome.skipped = merge.outcome.skipped
                for edit in merge.edits { try transaction.stage("\(contractsRelative)/\(edit.relativePath)", edit.data, replacing: true) }
            }
            outcome.written = try transaction.commit()
            return outcome
        } catch let error as WriteError {
            throw error
        } catch let error as RecordingMerge.MergeError {
            throw WriteError(problems: error.problems)
        } catch let error as FileTransactionError {
            throw WriteError(problems: [error.description], partial: error.isPartial)
        } catch {
            throw WriteError(problems: ["cannot write the import: \(FileErrorText.reason(error))"])
        }
    }

    /// Whether harvested fixtures hold a record of any collection.
    static func holdsRecords(_ fixtures: JSONValue) -> Bool {
        (fixtures.objectValue ?? JSONObject()).contains { !($0.value.arrayValue ?? []).isEmpty }
    }

    /// Letters, digits and `-` only, so the name is a plain file name.
    static func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(mapped).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "session" : collapsed
    }
}
