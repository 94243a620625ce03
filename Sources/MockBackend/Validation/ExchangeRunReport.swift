import CIReports
import ContractKit
import ContractModel
import Foundation

/// The report of a validating run (`proxy` or `serve`), written when it stops: totals, every violation, coverage.
public struct ExchangeRunReport: Sendable {
    /// What was checked, e.g. `proxy -> http://localhost:3000`.
    public var name: String
    /// The monitor whose findings are reported.
    public var monitor: ExchangeMonitor
    /// The contract ids, so every contract gets a test case even when no traffic reached it.
    public var contractIDs: [String] { monitor.coverage.contractIDs }

    /// A report of `monitor`'s findings.
    public init(name: String, monitor: ExchangeMonitor) {
        self.name = name
        self.monitor = monitor
    }

    /// Whether any real violation (undocumented traffic included) was seen.
    public var failed: Bool { monitor.log.totals.violations > 0 }

    /// `{"name", "totals", "violations", "coverage", "recordingErrors"}`.
    public func json() -> JSONValue {
        let log = monitor.log.json()
        return .object([
            "name": .string(name),
            "totals": log["totals"] ?? .null,
            "violations": log["violations"] ?? .array([]),
            "coverage": monitor.coverage.json(),
            "recordingErrors": .array((monitor.recorder?.errors ?? []).map(JSONValue.string)),
        ])
    }

    /// JUnit XML: one test case per contract (and one for undocumented traffic), failing with its violations;
    /// known defects are listed in the case's output, not as failures.
    public func junit() -> String {
        let items = monitor.log.items
        let cases = contractIDs + ["(undocumented)"]
        var body = ""
        var failures = 0
        for id in cases {
            let mine = items.filter { id == "(undocumented)" ? $0.violation.isUndocumented : ($0.violation.contract == id && !$0.violation.isUndocumented) }
            let real = mine.filter { $0.violation.isViolation }
            let known = mine.filter { !$0.violation.isViolation }
            body += "    <testcase classname=\"\(Self.escape(name))\" name=\"\(Self.escape(id))\">\n"
            if !real.isEmpty {
                failures += 1
                let text = real.map { "#\($0.sequence) \($0.request) -> \($0.status.map(String.init) ?? "-"): \($0.violation.line)" }.joined(separator: "\n")
                body += "      <failure message=\"\(real.count) violation(s)\">\(Self.escape(text))</failure>\n"
            }
            if !known.isEmpty {
                body += "      <system-out>\(Self.escape(known.map { "#\($0.sequence) \($0.request): \($0.violation.line)" }.joined(separator: "\n")))</system-out>\n"
            }
            body += "    </testcase>\n"
        }
        let coverage = monitor.coverage.summaryLines().joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="\(cases.count)" failures="\(failures)">
              <testsuite name="\(Self.escape(name))" tests="\(cases.count)" failures="\(failures)">
            \(body)    <system-out>\(Self.escape(coverage))</system-out>
              </testsuite>
            </testsuites>

            """
    }

    /// The lines printed when the run ends.
    public func summaryLines() -> [String] {
        let t = monitor.log.totals
        var line = "\(t.exchanges) exchanges, \(t.violations) violations (\(t.undocumented) undocumented) in \(t.failedExchanges) exchanges, \(t.knownDefects) known defects"
        if t.notes > 0 { line += ", \(t.notes) notes (the model assumed where the contracts state nothing)" }
        return [line]
            + monitor.coverage.summaryLines()
    }

    static func escape(_ text: String) -> String {
        XMLText.escape(text)
    }
}
