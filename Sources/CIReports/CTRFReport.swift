import ContractKit
import Foundation

/// CTRF JSON (https://ctrf.io, specification 1.0.0): the test report format the GitHub test reporter and the ctrf tools read.
public enum CTRFReport {
    /// The CTRF specification version the documents follow.
    public static let specVersion = "1.0.0"

    /// The document for `report`.
    public static func document(_ report: CIReport) -> JSONValue {
        var tool: JSONObject = ["name": .string(report.tool)]
        if let version = report.toolVersion { tool["version"] = .string(version) }
        let start = CIReport.epochMilliseconds(report.start)
        let stop = max(start, CIReport.epochMilliseconds(report.stop))
        let summary: JSONObject = [
            "tests": count(report.results.count),
            "passed": count(report.count(.passed)), "failed": count(report.count(.failed)),
            "skipped": count(report.count(.skipped)), "pending": count(report.count(.pending)), "other": count(report.count(.other)),
            "start": count(start), "stop": count(stop), "duration": count(stop - start),
        ]
        var root: JSONObject = [
            "reportFormat": "CTRF", "specVersion": .string(specVersion),
            "timestamp": .string(ISO8601DateFormatter().string(from: report.stop)),
            "generatedBy": .string(report.title),
            "results": [
                "tool": .object(tool), "summary": .object(summary), "tests": .array(report.results.map(test)),
            ],
        ]
        if !report.facts.isEmpty {
            root["extra"] = ["facts": .array(report.facts.map { .string($0) })]
        }
        return .object(root)
    }

    /// One test case.
    static func test(_ result: CIResult) -> JSONValue {
        var test: JSONObject = ["name": .string(result.name.isEmpty ? "(unnamed)" : result.name), "status": .string(result.status.rawValue),
                                "duration": count(result.milliseconds)]
        if !result.suite.isEmpty { test["suite"] = .array(result.suite.map { .string($0) }) }
        if let message = result.message { test["message"] = .string(message) }
        if let details = result.details { test["trace"] = .string(details) }
        if let location = result.location {
            test["filePath"] = .string(location.file)
            if let line = location.line { test["line"] = count(line) }
        }
        if let raw = result.rawStatus { test["rawStatus"] = .string(raw) }
        if let rule = result.rule { test["tags"] = [.string(rule)] }
        return .object(test)
    }

    private static func count(_ n: Int) -> JSONValue { .number(Double(n)) }
}
