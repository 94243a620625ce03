import CIReports
import Foundation

/// JUnit XML as CI systems read it: one testsuite per run, one testcase per scenario, failures and skips marked.
public enum JUnitReporter {
    /// The document for `report`; `suiteName` becomes the testsuite name (e.g. including the shard), `folder` prefixes file paths.
    public static func document(_ report: RunReport, suiteName: String = "spotcheck", folder: String = "scenarios") -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let time = String(format: "%.3f", report.seconds)
        xml += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(report.results.count + report.unseenKnownDefects.count)\" failures=\"\(report.failed + (report.strictKnownDefects ? report.unseenKnownDefects.count : 0))\" errors=\"0\" skipped=\"\(report.skipped)\" time=\"\(time)\">\n"
        xml += "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(report.results.count + report.unseenKnownDefects.count)\" failures=\"\(report.failed + (report.strictKnownDefects ? report.unseenKnownDefects.count : 0))\" errors=\"0\" skipped=\"\(report.skipped)\" time=\"\(time)\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"client\" value=\"\(escape(report.client))\"/>\n"
        xml += "      <property name=\"target\" value=\"\(escape(report.target))\"/>\n"
        xml += "    </properties>\n"
        for r in report.results {
            let caseTime = String(format: "%.3f", r.seconds)
            xml += "    <testcase name=\"\(escape(r.name))\" classname=\"\(escape(folder)).\(escape(className(r.file)))\" file=\"\(escape(folder + "/" + r.file))\" time=\"\(caseTime)\""
            switch r.status {
            case .passed where r.readings.isEmpty:
                xml += "/>\n"
            case .passed:
                xml += ">\n      <system-out>\(escape(r.readings.map { "reading: " + $0 }.joined(separator: "\n")))</system-out>\n    </testcase>\n"
            case .knownDefect:
                xml += ">\n      <properties><property name=\"verdict\" value=\"knownDefect\"/></properties>\n"
                let lines = r.knownDefects.map { "known server defect \($0.id): \($0.reason)" }.joined(separator: "\n")
                xml += "      <system-out>\(escape(lines))</system-out>\n    </testcase>\n"
            case .note:
                // A note passes: CI shows it in the test's output and its verdict property, never as a failure.
                xml += ">\n      <properties><property name=\"verdict\" value=\"note\"/></properties>\n"
                let lines = r.assumptions.map { "assumed: " + $0 } + r.notes
                xml += "      <system-out>\(escape(lines.joined(separator: "\n")))</system-out>\n    </testcase>\n"
            case .skipped:
                xml += ">\n      <skipped message=\"\(escape(r.skipReason ?? "skipped"))\"/>\n    </testcase>\n"
            case .failed:
                let headline = r.failure?.headline ?? "failed"
                xml += ">\n      <failure message=\"\(escape(headline))\" type=\"ScenarioFailure\">\(escape(r.failureMessage ?? headline))</failure>\n"
                if !r.readings.isEmpty { xml += "      <system-out>\(escape(r.readings.map { "reading: " + $0 }.joined(separator: "\n")))</system-out>\n" }
                xml += "    </testcase>\n"
            }
        }
        for defect in report.unseenKnownDefects {
            xml += "    <testcase name=\"\(escape("known defect no longer seen: " + defect.id))\" classname=\"\(escape(folder)).known-defects\" file=\"\(escape(defect.file))\" time=\"0\">\n"
            let text = "\(defect.checkName) now answers as documented: remove \(defect.id) from the list"
            xml += report.strictKnownDefects
                ? "      <failure message=\"\(escape(text))\" type=\"KnownDefectNoLongerSeen\">\(escape(text))</failure>\n"
                : "      <system-out>\(escape(text))</system-out>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func className(_ file: String) -> String {
        file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    /// Escapes text for XML (see `XMLText`).
    public static func escape(_ text: String) -> String {
        XMLText.escape(text)
    }
}
