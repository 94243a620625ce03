import ContractKit
import Foundation
import MockBackend

/// One HAR file per failed scenario (`run --har-dir`), named after the scenario's file, so a failing CI run carries
/// what was on the wire beside its JUnit entry.
public enum FailedScenarioHAR {
    /// The file name for a scenario file: `fault-step2-503.json` → `fault-step2-503.har`; subfolders become `-`.
    public static func fileName(for scenarioFile: String) -> String {
        let stem = scenarioFile.hasSuffix(".json") ? String(scenarioFile.dropLast(5)) : scenarioFile
        return stem.replacingOccurrences(of: "/", with: "-") + ".har"
    }

    /// Writes a HAR for every failed result that kept its exchanges; the files written, in the report's order.
    public static func write(_ report: RunReport, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for result in report.results where result.status == .failed && !result.exchanges.isEmpty {
            let log = HARLog(creator: .spotCheck, entries: result.exchanges.map { JournalHAR.entry($0, origin: "http://127.0.0.1") },
                             comment: "spotcheck run: \(result.name) (\(result.file)) failed; every exchange of the scenario, in order.")
            let file = directory.appendingPathComponent(fileName(for: result.file))
            try Data(HARWriter.document(log).utf8).write(to: file, options: .atomic)
            written.append(file)
        }
        return written
    }
}
