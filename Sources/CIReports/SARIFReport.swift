import ContractKit
import Foundation

/// SARIF 2.1.0, the format code-scanning tools read: each result with a level becomes a finding on its file and line.
public enum SARIFReport {
    /// The schema the documents declare.
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// The document for `report`; `informationURI` is the tool's home page, when it has one.
    public static func document(_ report: CIReport, informationURI: String? = nil) -> JSONValue {
        let findings = report.results.filter { $0.level != nil }
        var ruleIDs: [String] = []
        for result in findings where !ruleIDs.contains(ruleID(result, report)) { ruleIDs.append(ruleID(result, report)) }
        var driver: JSONObject = ["name": .string(report.tool)]
        if let version = report.toolVersion { driver["version"] = .string(version) }
        if let informationURI { driver["informationUri"] = .string(informationURI) }
        driver["rules"] = .array(ruleIDs.map { id in
            ["id": .string(id), "shortDescription": ["text": .string(report.ruleDescriptions[id] ?? id)]]
        })
        let results: [JSONValue] = findings.map { result in
            let id = ruleID(result, report)
            var entry: JSONObject = [
                "ruleId": .string(id), "ruleIndex": .number(Double(ruleIDs.firstIndex(of: id) ?? 0)),
                "level": .string(level(result.level)),
                "message": ["text": .string(result.details ?? result.message ?? result.name)],
            ]
            if let location = result.location {
                var physical: JSONObject = ["artifactLocation": ["uri": .string(uri(location.file))]]
                if let line = location.line {
                    var region: JSONObject = ["startLine": .number(Double(line))]
                    if let column = location.column { region["startColumn"] = .number(Double(column)) }
                    physical["region"] = .object(region)
                }
                entry["locations"] = [["physicalLocation": .object(physical)]]
            }
            return .object(entry)
        }
        return [
            "$schema": .string(schemaURI), "version": "2.1.0",
            "runs": [["tool": ["driver": .object(driver)], "results": .array(results), "columnKind": "unicodeCodePoints"]],
        ]
    }

    static func ruleID(_ result: CIResult, _ report: CIReport) -> String {
        result.rule ?? "\(report.tool)/\(report.command)"
    }

    static func level(_ level: CIResult.Level?) -> String {
        switch level {
        case .error?: return "error"
        case .warning?: return "warning"
        case .notice?, nil: return "note"
        }
    }

    /// A relative path as a URI reference: each segment percent-encoded, the `/` kept.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }.joined(separator: "/")
    }
}
