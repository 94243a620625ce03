import ContractKit
import ContractModel
import Foundation
import HTTPArchive
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
    /// `secrets` names what is redacted (nil keeps every secret, and `creator.comment` says so); a symlink at a
    /// file's name is refused, never written through.
    public static func write(_ report: RunReport, to directory: URL, secrets: SecretNames? = SecretNames()) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for result in report.results where result.status == .failed && !result.exchanges.isEmpty {
            let entries = result.exchanges.map { exchange in
                JournalHAR.entry(secrets.map { exchange.redactingSecrets($0) } ?? exchange, origin: "http://127.0.0.1")
            }
            let log = HARLog(creator: .spotCheck(keptSecrets: secrets == nil), entries: entries,
                             comment: "spotcheck run: \(result.name) (\(result.file)) failed; every exchange of the scenario, in order.")
            let file = directory.appendingPathComponent(fileName(for: result.file))
            try SafeFileWrite.write(Data(HARWriter.document(log).utf8), to: file.path)
            written.append(file)
        }
        return written
    }
}
