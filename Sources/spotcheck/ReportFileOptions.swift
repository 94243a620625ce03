import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// `--junit FILE` and `--json FILE`: the machine-readable reports of `run` and `verify`.
struct ReportFileOptions: ParsableArguments {
    @Option(help: "Also write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "Also write a JSON report to this file.")
    var json: String?

    /// Writes the requested report files; returns a message for a person when one cannot be written.
    func write(_ report: RunReport, suiteName: String, folder: String) -> String? {
        if let junit, let message = Self.write(JUnitReporter.document(report, suiteName: suiteName, folder: folder), to: junit) {
            return message
        }
        if let json, let message = Self.write(JSONReporter.document(report).serialized(pretty: true) + "\n", to: json) {
            return message
        }
        return nil
    }

    /// Writes already rendered JUnit and JSON texts; returns a message for a person when one cannot be written.
    func write(junit junitText: String, json jsonText: String) -> String? {
        if let junit, let message = Self.write(junitText, to: junit) { return message }
        if let json, let message = Self.write(jsonText, to: json) { return message }
        return nil
    }

    private static func write(_ text: String, to path: String) -> String? {
        do {
            try SafeFileWrite.write(Data(text.utf8), to: path)
            return nil
        } catch {
            return "cannot write \(path): \(FileErrorText.reason(error))"
        }
    }
}
