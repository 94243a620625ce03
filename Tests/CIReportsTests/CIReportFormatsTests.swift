import ContractKit
import Foundation
import Testing

@testable import CIReports

/// CTRF and SARIF documents validate against their published schemas (shipped in Fixtures/report-schemas), with the
/// project's own validator; `scripts/check-report-schemas.sh` validates real command output with Python's jsonschema too.
@Suite struct CIReportFormatsTests {
    @Test func ctrfValidatesAgainstThePublishedSchema() throws {
        let document = CTRFReport.document(CIReportFixture.report)
        let violations = SchemaValidator().validate(document, against: try CIReportFixture.schema("ctrf.schema.json"))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func ctrfCarriesCountsTimesAndTheLineAtFault() throws {
        let document = CTRFReport.document(CIReportFixture.report)
        #expect(document["reportFormat"] == "CTRF")
        #expect(document["results"]?["tool"]?["name"] == "spotcheck")
        let summary = try #require(document["results"]?["summary"])
        #expect(summary["tests"] == 5 && summary["passed"] == 2 && summary["failed"] == 1 && summary["skipped"] == 1 && summary["other"] == 1)
        #expect(summary["start"] == 1_764_000_000_000 && summary["stop"] == 1_764_000_003_500 && summary["duration"] == 3500)
        let failed = try #require(CIReportFixture.item(document["results"]?["tests"], 1))
        #expect(failed["status"] == "failed" && failed["duration"] == 1234)
        #expect(failed["filePath"] == "scenarios/photo-503.json" && failed["line"] == 14)
        #expect(failed["message"] == .string(CIReportFixture.failing.message ?? ""))
        #expect(failed["trace"] == .string(CIReportFixture.failing.details ?? ""))
        #expect(CIReportFixture.item(document["results"]?["tests"], 3)?["rawStatus"] == "knownDefect")
        #expect(CIReportFixture.item(document["results"]?["tests"], 4)?["name"] == "(unnamed)")
    }

    /// The check above could pass by validating nothing: the same schema rejects what CTRF forbids.
    @Test func theCTRFSchemaRejectsAStatusCTRFDoesNotKnow() throws {
        guard case .object(var root) = CTRFReport.document(CIReportFixture.report), case .object(var results)? = root["results"],
              case .array(var tests)? = results["tests"], case .object(var first) = tests[0] else { Issue.record("unexpected shape"); return }
        first["status"] = "knownDefect"
        tests[0] = .object(first)
        results["tests"] = .array(tests)
        root["results"] = .object(results)
        let violations = SchemaValidator().validate(.object(root), against: try CIReportFixture.schema("ctrf.schema.json"))
        #expect(violations.map(\.pointer) == ["/results/tests/0/status"])
    }

    @Test func sarifValidatesAgainstThePublishedSchema() throws {
        let document = SARIFReport.document(CIReportFixture.report, informationURI: "https://example.com/spotcheck")
        let violations = SchemaValidator().validate(document, against: try CIReportFixture.schema("sarif-schema-2.1.0.json"))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func sarifHasOneResultPerFindingOnItsLineWithItsRule() throws {
        let document = SARIFReport.document(CIReportFixture.report)
        #expect(document["version"] == "2.1.0")
        let run = try #require(CIReportFixture.item(document["runs"], 0))
        #expect(run["tool"]?["driver"]?["name"] == "spotcheck" && run["tool"]?["driver"]?["version"] == "0.1.0")
        #expect(run["tool"]?["driver"]?["rules"] == [["id": "spotcheck/run", "shortDescription": ["text": "A scenario's expectation did not hold"]]])
        let results = try #require(run["results"]?.arrayValue)
        // The failure and the known defect (a notice); passed and skipped results are not findings.
        #expect(results.count == 2)
        #expect(results[0]["level"] == "error" && results[1]["level"] == "note")
        let location = try #require(CIReportFixture.item(results[0]["locations"], 0)?["physicalLocation"])
        #expect(location["artifactLocation"]?["uri"] == "scenarios/photo-503.json")
        #expect(location["region"] == ["startLine": 14, "startColumn": 5])
    }

    @Test func theSARIFSchemaRejectsALevelSARIFDoesNotKnow() throws {
        let document = try JSONValue(parsing: SARIFReport.document(CIReportFixture.report).serialized().replacingOccurrences(of: "\"level\":\"error\"", with: "\"level\":\"fatal\""))
        let violations = SchemaValidator().validate(document, against: try CIReportFixture.schema("sarif-schema-2.1.0.json"))
        #expect(violations.map(\.keyword).contains("enum"), "\(violations)")
    }

    @Test func sarifURIsArePercentEncodedRelativeReferences() {
        #expect(SARIFReport.uri("scenarios/photo 503.json") == "scenarios/photo%20503.json")
        #expect(SARIFReport.uri("HEAD:contracts/a.json") == "HEAD%3Acontracts/a.json")
    }
}
