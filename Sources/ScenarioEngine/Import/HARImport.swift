import ContractKit
import Foundation
import MockBackend

/// `spotcheck import har`: a HAR from Proxyman, Charles, Chrome or Firefox (or SpotCheck) turned into a fixtures file,
/// contract examples (through the recordings merge) and a scenario skeleton that replays the session.
///
/// Everything is worked out before anything is written; the files are written to temporary names and renamed at the
/// end, and the contracts merge rolls itself back, so a failed import leaves no file half-done.
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
        /// `{"announcements": [...]}`.
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

    /// Why the import wrote nothing.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The problems, one sentence each.
        public let problems: [String]
        /// All problems, one per line.
        public var description: String { problems.joined(separator: "\n") }
    }

    /// Reads the entries and plans the import; throws naming the entry when the HAR is unusable or from another API.
    public static func plan(_ log: HARLog, file: String, contracts: ContractSet, keepSecrets: Bool) throws(HARReadError) -> Plan {
        let validator = ExchangeValidator(contracts: contracts, knownDefects: KnownDefectList(contracts.knownDefects, contracts: contracts))
        var exchanges: [ImportedExchange] = []
        var unmatched: [String] = []
        var broken: [String] = []
        for (index, har) in log.entries.enumerated() {
            var exchange = ImportedExchange(har, index: index, contracts: contracts, keepSecrets: keepSecrets)
            guard let contract = exchange.entry.contract else {
                unmatched.append(exchange.label)
                continue
            }
            if exchange.entry.fault == nil, exchange.fault == nil || exchange.entry.status != nil {
                exchange.entry.violations = validator.validate(Exchange(exchange.entry), answerIsGenuine: exchange.fault == nil)
                for violation in exchange.entry.violations where violation.isViolation {
                    broken.append("\(exchange.label): broke \(contract) (\(violation.side.rawValue) side) at \(violation.pointer): expected \(violation.expected), got \(violation.got)")
                }
            }
            exchanges.append(exchange)
        }
        guard !exchanges.isEmpty else {
            let first = log.entries.first
            throw HARReadError(file: file, entry: first == nil ? nil : 0, url: first?.request.url, location: "",
                               message: log.entries.isEmpty ? "the HAR has no entries"
                                   : "no entry matches a contract in \(contracts.directory.path) (\(log.entries.count) entries): is this HAR from another API?")
        }
        let name = "har-" + slug(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        let fixtures = PetSpotFixtureHarvest.fixtures(from: exchanges.map(\.entry))
        let hasFixtures = !(fixtures["announcements"]?.arrayValue ?? []).isEmpty
        let scenario = HARScenarioSkeleton.document(name: name, source: URL(fileURLWithPath: file).lastPathComponent, exchanges: exchanges,
                                                    fixturesFile: hasFixtures ? name + ".json" : nil)
        return Plan(name: name, exchanges: exchanges, unmatched: unmatched, broken: broken, fixtures: fixtures, scenario: scenario)
    }

    /// Writes `scenarios/<name>.json`, `scenarios/fixtures/<name>.json` (when any announcement was seen) and merges the
    /// examples into `contracts` of `root`; nothing is left behind when any part fails.
    public static func write(_ plan: Plan, contracts: ContractSet, scenarios: URL) throws(WriteError) -> Outcome {
        let files = FileManager.default
        let scenarioFile = scenarios.appendingPathComponent(plan.name + ".json")
        let fixturesFile = scenarios.appendingPathComponent("fixtures").appendingPathComponent(plan.name + ".json")
        let wantsFixtures = !(plan.fixtures["announcements"]?.arrayValue ?? []).isEmpty
        for file in [scenarioFile] + (wantsFixtures ? [fixturesFile] : []) where files.fileExists(atPath: file.path) {
            throw WriteError(problems: ["\(file.path) already exists; move it away or rename the HAR file"])
        }
        let scratch = files.temporaryDirectory.appendingPathComponent("spotcheck-import-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        var staged: [(temp: URL, final: URL)] = []
        func cleanUp() { for s in staged { try? files.removeItem(at: s.temp) } }
        do {
            let recorder = try ExchangeRecorder(directory: scratch.appendingPathComponent("recordings"), contracts: contracts)
            for exchange in plan.exchanges where !exchange.entry.violations.contains(where: \.isViolation) { recorder.record(exchange.entry) }
            if let problem = recorder.errors.first { throw WriteError(problems: [problem]) }
            try files.createDirectory(at: fixturesFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            var pairs = [(plan.scenario, scenarioFile)]
            if wantsFixtures { pairs.append((plan.fixtures, fixturesFile)) }
            for (value, final) in pairs {
                let temp = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).\(UUID().uuidString).tmp")
                try Data((value.serialized(pretty: true) + "\n").utf8).write(to: temp)
                staged.append((temp, final))
            }
            var outcome = Outcome()
            let recorded = (try? files.contentsOfDirectory(atPath: scratch.appendingPathComponent("recordings").path)) ?? []
            if recorded.contains(where: { $0.hasSuffix(".json") }) {
                let merge = try RecordingMerge.merge(recordings: scratch.appendingPathComponent("recordings"), into: contracts.directory)
                outcome.merged = merge.merged
                outcome.skipped = merge.skipped
            }
            for s in staged {
                try files.moveItem(at: s.temp, to: s.final)
                outcome.written.append(s.final)
            }
            return outcome
        } catch let error as WriteError {
            cleanUp()
            throw error
        } catch let error as RecordingMerge.MergeError {
            cleanUp()
            throw WriteError(problems: error.problems)
        } catch {
            cleanUp()
            throw WriteError(problems: ["cannot write the import: \(FileErrorText.reason(error))"])
        }
    }

    /// Letters, digits and `-` only, so the name is a plain file name.
    static func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(mapped).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "session" : collapsed
    }
}
