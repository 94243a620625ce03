import ContractKit
import Foundation

@testable import CIReports

/// A report with every status, a failure on a line, text that needs escaping in every format, and the published schemas.
enum CIReportFixture {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/report-schemas")

    /// A published schema from `Fixtures/report-schemas`.
    static func schema(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: schemas.appendingPathComponent(name)))
    }

    /// Item `index` of an array value, nil when there is none.
    static func item(_ value: JSONValue?, _ index: Int) -> JSONValue? {
        guard let items = value?.arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }

    static let failing: CIResult = CIResult(
        name: "photo 503 | shows <b>wrong</b> alert", suite: ["spotcheck run"], status: .failed, duration: .milliseconds(1234),
        message: "step 2 (submit): alert kind: expected serverError, got noConnection",
        details: "step 2 (submit) at /steps/1:\n  alert kind: expected serverError, got noConnection\n  journal:\n    #1 POST /api/v1/announcements → 503 ```x```",
        location: CILocation(file: "scenarios/photo-503.json", line: 14, column: 5))

    static var report: CIReport {
        var report = CIReport(toolVersion: "0.1.0", command: "run", start: Date(timeIntervalSince1970: 1_764_000_000),
                              stop: Date(timeIntervalSince1970: 1_764_000_003.5), results: [
            CIResult(name: "create succeeds", suite: ["spotcheck run"], status: .passed, duration: .milliseconds(12),
                     location: CILocation(file: "scenarios/create.json")),
            failing,
            CIResult(name: "needs fixtures", suite: ["spotcheck run"], status: .skipped, message: "a proxy cannot set up fixtures"),
            CIResult(name: "duplicate microchip", suite: ["spotcheck run"], status: .other, message: "known server defect, not drift",
                     location: CILocation(file: "contracts/known-defects.json", line: 3, column: 5), level: .notice, rawStatus: "knownDefect"),
            CIResult(name: "", suite: [], status: .passed),
        ])
        report.facts = ["client: PetSpotClient; target: embedded mock backend", "seed 7"]
        report.ruleDescriptions = ["spotcheck/run": "A scenario's expectation did not hold"]
        return report
    }
}
