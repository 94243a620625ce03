import ArgumentParser
import CIReports
import ContractKit
import ContractModel
import Foundation

/// `--ctrf FILE` and `--summary FILE`: the CI reports of `run`, `verify`, `explore`, `lint` and `diff` (docs/ci-reports.md).
struct CIReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write a CTRF JSON report (ctrf.io) to this file.", valueName: "file"))
    var ctrf: String?

    @Option(help: ArgumentHelp("Also write a Markdown job summary to this file (default: appended to $GITHUB_STEP_SUMMARY when set).", valueName: "file"))
    var summary: String?

    /// What to write, with `environment` deciding the GitHub defaults; `sarif` for the commands that offer it.
    func request(environment: [String: String], sarif: String? = nil) -> CIReportRequest {
        CIReportRequest(ctrf: ctrf, summary: summary, sarif: sarif, environment: environment)
    }

    /// Builds the report only when something is to be written (see `CIReportRequest.write(print:report:)`).
    func write(environment: [String: String], print: (String) -> Void, report: (inout SourceLocator) -> CIReport) -> String? {
        request(environment: environment).write(print: print, report: report)
    }
}

/// `--sarif FILE`: SARIF 2.1.0 for code scanning, written by `lint` and `diff`.
struct SARIFOption: ParsableArguments {
    @Option(help: ArgumentHelp("Also write the problems as SARIF 2.1.0 (code scanning) to this file.", valueName: "file"))
    var sarif: String?
}

/// Which CI reports one command writes, decided once from its options and environment.
struct CIReportRequest: Sendable {
    /// The CTRF file, if asked for.
    var ctrf: String?
    /// The summary file, if asked for; it is replaced, while GitHub's default file is appended to.
    var summary: String?
    /// The SARIF file, if asked for.
    var sarif: String?
    /// The process environment: `GITHUB_STEP_SUMMARY` and `GITHUB_ACTIONS` turn the GitHub outputs on.
    var environment: [String: String]

    /// Nothing to write (tests and library callers).
    static let none = CIReportRequest(environment: [:])

    /// The version reports name the tool with.
    static let toolVersion = "0.1.0"

    /// Whether building a report is worth it.
    var isEmpty: Bool {
        ctrf == nil && summary == nil && sarif == nil && environment[JobSummary.environmentVariable] == nil
            && !GitHubAnnotations.isEnabled(in: environment)
    }

    /// Writes the asked-for files and returns the annotation lines to print on standard output (none outside GitHub
    /// Actions); throws a message for a person when a file cannot be written.
    func write(_ report: CIReport) throws(CIReportWriteError) -> [String] {
        var report = report
        report.toolVersion = report.toolVersion ?? Self.toolVersion
        if let ctrf { try Self.write(CTRFReport.document(report).serialized(pretty: true) + "\n", to: ctrf, append: false) }
        if let sarif { try Self.write(SARIFReport.document(report).serialized(pretty: true) + "\n", to: sarif, append: false) }
        if let summary {
            try Self.write(JobSummary.markdown(report), to: summary, append: false)
        } else if let summary = environment[JobSummary.environmentVariable], !summary.isEmpty {
            try Self.write(JobSummary.markdown(report), to: summary, append: true)
        }
        return GitHubAnnotations.isEnabled(in: environment) ? GitHubAnnotations.lines(report) : []
    }

    /// Builds the report only when something is to be written, writes it and prints the annotations; returns a message
    /// for a person when a file cannot be written.
    func write(print: (String) -> Void, report: (inout SourceLocator) -> CIReport) -> String? {
        guard !isEmpty else { return nil }
        var locator = SourceLocator()
        do throws(CIReportWriteError) {
            for line in try write(report(&locator)) { print(line) }
            return nil
        } catch {
            return error.message
        }
    }

    private static func write(_ text: String, to path: String, append: Bool) throws(CIReportWriteError) {
        // Never through a symlink planted at the report's name (SafeFileWrite says so when it refuses).
        do {
            try SafeFileWrite.write(Data(text.utf8), to: path, append: append)
        } catch {
            throw CIReportWriteError(message: "cannot write \(path): \(FileErrorText.reason(error))")
        }
    }
}

/// A CI report file that could not be written, said for a person.
struct CIReportWriteError: Error, Sendable {
    /// Which file and why.
    let message: String
}
