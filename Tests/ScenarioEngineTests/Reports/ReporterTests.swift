import ContractKit
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ScenarioEngine

@Suite struct ReporterTests {
    static func report() -> RunReport {
        let failure = ScenarioFailure(
            stepNumber: 2, action: "retry", pointer: "/steps/1",
            mismatches: [Mismatch("alert kind", expected: "noConnection", actual: "generic <&> \"quoted\" 'single' \u{1}")],
            because: "offline must say so", journalExcerpt: ["#1 POST /api/v1/announcements (createAnnouncement) → 503 [fault status]"])
        return RunReport(results: [
            ScenarioResult(name: "passes", file: "a.json", tags: ["x"], status: .passed, duration: .milliseconds(12), stepsRun: 1),
            ScenarioResult(name: "fails <b>", file: "b.json", tags: [], status: .failed, duration: .milliseconds(30), failure: failure, stepsRun: 2),
            ScenarioResult(name: "skipped & why", file: "c.json", tags: [], status: .skipped, duration: .zero, skipReason: "needs fixtures"),
        ], duration: .milliseconds(50), client: "test client", target: "test target")
    }

    @Test func junitIsWellFormedXMLWithCountsFailuresAndSkips() throws {
        let xml = JUnitReporter.document(Self.report(), suiteName: "spotcheck shard 1/2")
        let delegate = JUnitCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = delegate
        #expect(parser.parse(), "parse error: \(String(describing: parser.parserError))")
        #expect(delegate.elements.filter { $0 == "testcase" }.count == 3)
        #expect(delegate.elements.filter { $0 == "failure" }.count == 1)
        #expect(delegate.elements.filter { $0 == "skipped" }.count == 1)
        #expect(delegate.attributes["testsuite"]?["failures"] == "1")
        #expect(delegate.attributes["testsuite"]?["skipped"] == "1")
        #expect(delegate.attributes["testsuite"]?["tests"] == "3")
        #expect(delegate.testcaseNames == ["passes", "fails <b>", "skipped & why"])
        #expect(delegate.failureText.contains("expected noConnection, got generic <&> \"quoted\""))
    }

    @Test func escapingCoversMarkupAndForbiddenControlCharacters() {
        #expect(JUnitReporter.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
        #expect(JUnitReporter.escape("bell\u{7}") == "bell\u{FFFD}")
        #expect(JUnitReporter.escape("tab\tline\n") == "tab\tline\n")
    }

    @Test func jsonReportCarriesSummaryAndFailureDetails() throws {
        let doc = JSONReporter.document(Self.report())
        let reparsed = try JSONValue(parsing: doc.serialized(pretty: true))
        #expect(reparsed["summary"]?["failed"] == 1)
        #expect(reparsed["summary"]?["passed"] == 1)
        #expect(reparsed["results"]?.arrayValue?.count == 3)
        let failure = reparsed["results"]?.arrayValue?[1]["failure"]
        #expect(failure?["step"] == 2)
        #expect(failure?["mismatches"]?.arrayValue?.first?["expected"] == "noConnection")
        #expect(reparsed["results"]?.arrayValue?[2]["skipReason"] == "needs fixtures")
    }

    @Test func consoleShowsStepExpectedActualAndJournalOnFailure() {
        let report = Self.report()
        let line = ConsoleReporter.line(for: report.results[1])
        #expect(line.hasPrefix("FAIL"))
        #expect(line.contains("step 2 (retry) at /steps/1:"))
        #expect(line.contains("alert kind: expected noConnection, got generic"))
        #expect(line.contains("why it matters: offline must say so"))
        #expect(line.contains("#1 POST /api/v1/announcements (createAnnouncement) → 503 [fault status]"))
        #expect(ConsoleReporter.line(for: report.results[0]).hasPrefix("PASS"))
        #expect(ConsoleReporter.line(for: report.results[2]).contains("needs fixtures"))
        #expect(ConsoleReporter.summary(report).contains("3 scenarios: 1 passed, 1 failed, 1 skipped"))
        #expect(report.exitCode == 1)
    }
}

/// Records what the XML parser saw.
final class JUnitCollector: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var attributes: [String: [String: String]] = [:]
    var testcaseNames: [String] = []
    var failureText = ""
    private var inFailure = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(name)
        self.attributes[name] = attributes
        if name == "testcase", let n = attributes["name"] { testcaseNames.append(n) }
        inFailure = name == "failure"
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { failureText += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "failure" { inFailure = false }
    }
}
