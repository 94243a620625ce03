import ArgumentParser
import ContractKit
import ContractModel
import Exploration
import Foundation
import MockCommands

/// `spotcheck merge-reports A.json B.json ...`: the JSON reports of several `explore --shard` runners as one grouped report.
struct MergeReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Combine the JSON reports of several `spotcheck explore --shard i/n` runs into one grouped report.",
        discussion: """
            Sessions, steps, rule counts and slow-machine sessions are added up; counterexamples are joined by the check \
            they broke, with the sessions that hit it summed and the lowest seed and session as the representative. Exit 0 \
            when no report holds a counterexample, 1 when one does, 2 on an unreadable report. See docs/explore.md.
            """
    )

    @Argument(help: "The JSON reports (`spotcheck explore --json FILE`).")
    var files: [String]

    @OptionGroup var reports: ReportFileOptions

    func run() async throws {
        let code = execute(print: ConsoleOutput.shared.write)
        if code != 0 { throw ExitCode(code) }
    }

    /// Merges, writing human output through `print`; returns the exit code.
    func execute(print: @escaping @Sendable (String) -> Void) -> Int32 {
        guard !files.isEmpty else {
            print("spotcheck merge-reports: give at least one JSON report")
            return 2
        }
        var read: [ExplorationReport] = []
        for file in files {
            do {
                let value = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: file)))
                guard let report = ExplorationReport(json: value) else {
                    print("spotcheck merge-reports: \(file) is not a report of spotcheck explore --json (expected seed, client, sessions, steps, rules and groups)")
                    return 2
                }
                read.append(report)
            } catch {
                print("spotcheck merge-reports: cannot read \(file): \(FileErrorText.reason(error))")
                return 2
            }
        }
        let merged = ExplorationReport.merged(read)
        print("merged \(read.count) report\(read.count == 1 ? "" : "s"): " + files.joined(separator: ", "))
        print(merged.text)
        if let message = reports.write(junit: merged.junit, json: merged.json.serialized(pretty: true) + "\n") {
            print("spotcheck merge-reports: \(message)")
            return 2
        }
        return merged.exitCode
    }
}
