import ArgumentParser
import ContractKit
import ContractModel
import Foundation
import MockBackend

extension ValidationScope: ExpressibleByArgument {}

/// The options of `proxy` and `serve` that check live traffic: validation, the run's report, coverage and recording.
struct TrafficCheckOptions: ParsableArguments {
    @Option(name: .customLong("validate"), help: ArgumentHelp(
        "What to check against the contracts: all (requests, answers, invariants), requests (the client's side only) or off. Default: all for proxy, requests for serve.",
        valueName: "scope"))
    var validate: ValidationScope?

    @Flag(name: .customLong("no-validate"), help: "The same as --validate off (coverage and recording still run).")
    var noValidate = false

    @Option(help: ArgumentHelp("Write the run's JUnit XML report (a test case per contract) here when the server stops.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the run's JSON report (totals, violations, coverage) here when the server stops.", valueName: "file"))
    var json: String?

    @Flag(help: "Exit 1 when the server stops if any exchange violated its contract (undocumented traffic included).")
    var failOnViolation = false

    @Option(help: ArgumentHelp("Write each distinct exchange (contract, status, error code) as a contract example into this folder.", valueName: "dir"))
    var record: String?

    @Option(name: .customLong("record-har"), help: ArgumentHelp("Append every exchange to this HAR 1.2 file as it happens (a complete HAR after each one).", valueName: "file"))
    var recordHAR: String?

    @Flag(name: .customLong("keep-secrets"), help: "Keep credentials, tokens and passwords in --record-har and journal.har (redacted by default; the HAR's creator.comment says which).")
    var keepSecrets = false

    @Option(help: ArgumentHelp("A coverage file from a mock run (GET /__spotcheck/coverage or serve --coverage-out); answers seen only there are listed apart.", valueName: "file"))
    var mockCoverage: String?

    @Option(help: ArgumentHelp("Write the run's coverage JSON here when the server stops.", valueName: "file"))
    var coverageOut: String?

    /// The monitor to install; `source` is `real` for a proxy, `mock` for serve; `defaultScope` applies without
    /// `--validate`. Throws a message for a person.
    func monitor(contracts: ContractSet, source: String, defaultScope: ValidationScope, harOrigin: String = "http://127.0.0.1") throws -> ExchangeMonitor {
        if noValidate, let validate, validate != .off {
            throw ValidationError("--no-validate contradicts --validate \(validate.rawValue); give one of them")
        }
        let scope = noValidate ? .off : validate ?? defaultScope
        var mockObserved: Set<ContractCoverage.Answer> = []
        if let mockCoverage {
            do {
                mockObserved = ContractCoverage.observedAnswers(in: try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: mockCoverage))))
            } catch {
                throw ValidationError("--mock-coverage \(mockCoverage): \(FileErrorText.reason(error))")
            }
        }
        var recorder: ExchangeRecorder?
        if let record {
            do {
                recorder = try ExchangeRecorder(directory: URL(fileURLWithPath: record), contracts: contracts)
            } catch {
                throw ValidationError("--record \(record): \(FileErrorText.reason(error))")
            }
        }
        var harRecorder: HARFileRecorder?
        if let recordHAR {
            do {
                harRecorder = try HARFileRecorder(file: URL(fileURLWithPath: recordHAR), origin: harOrigin,
                                                  secrets: keepSecrets ? nil : SecretNames(contracts: contracts))
            } catch {
                throw ValidationError("--record-har \(recordHAR): \(FileErrorText.reason(error))")
            }
        }
        return ExchangeMonitor(
            validator: scope == .off ? nil : ExchangeValidator(contracts: contracts, knownDefects: KnownDefectList(contracts.knownDefects, contracts: contracts, multipart: MultipartKitScanner())),
            checksAnswers: scope == .all,
            coverage: ContractCoverage(contracts: contracts, source: source, mockObserved: mockObserved),
            recorder: recorder,
            harRecorder: harRecorder,
            console: { line in FileHandle.standardError.write(Data(("spotcheck: " + line + "\n").utf8)) })
    }

    /// Reports the run of `server` (which has stopped); 0 when it has no monitor.
    func finish(_ server: MockServer, name: String) -> Int32 {
        guard let monitor = server.exchangeObserver as? ExchangeMonitor else { return 0 }
        return finish(ExchangeRunReport(name: name, monitor: monitor))
    }

    /// Writes the report files and prints the summary; the exit code the run ends with (1 on a violation with --fail-on-violation).
    func finish(_ report: ExchangeRunReport) -> Int32 {
        var status: Int32 = 0
        func write(_ text: String, _ path: String) {
            do { try SafeFileWrite.write(Data(text.utf8), to: path) } catch {
                FileHandle.standardError.write(Data("spotcheck: cannot write \(path): \(FileErrorText.reason(error))\n".utf8))
                status = 2
            }
        }
        if let har = report.monitor.harRecorder {
            har.close()
            for error in har.errors { FileHandle.standardError.write(Data("spotcheck: \(error)\n".utf8)) }
            print("\(har.count) exchange\(har.count == 1 ? "" : "s") recorded in \(har.file.path)")
            if !har.errors.isEmpty { status = 2 }
        }
        if let junit { write(report.junit(), junit) }
        if let json { write(report.json().serialized(pretty: true) + "\n", json) }
        if let coverageOut { write(report.monitor.coverage.json().serialized(pretty: true) + "\n", coverageOut) }
        print(report.summaryLines().joined(separator: "\n"))
        if failOnViolation && report.failed && status == 0 { status = 1 }
        return status
    }
}
