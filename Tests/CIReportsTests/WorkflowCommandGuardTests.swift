import ContractKit
import Foundation
import Testing

@testable import CIReports

/// Issue 37: no text SpotCheck prints inside GitHub Actions can start a workflow command.
@Suite struct WorkflowCommandGuardTests {
    static let forged = "x\n::error file=a.swift,line=1::forged\n::stop-commands::tok\r::warning::w\n  ::notice::indented\nok ##[error]old"

    @Test func everyLineThatWouldStartACommandIsNeutralizedAndTheRestKept() {
        let safe = WorkflowCommandGuard.neutralize(Self.forged)
        for line in safe.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            #expect(!WorkflowCommandGuard.startsCommand(String(line)), "\(line)")
        }
        #expect(safe.hasPrefix("x\n| ::error file=a.swift,line=1::forged\n| ::stop-commands::tok\r| ::warning::w\n|   ::notice::indented\n"))
        #expect(WorkflowCommandGuard.neutralize("PASS 3 ms name") == "PASS 3 ms name")
    }

    @Test func onlyInsideGitHubActions() {
        #expect(WorkflowCommandGuard.text(Self.forged, in: [:]) == Self.forged)
        #expect(WorkflowCommandGuard.text(Self.forged, in: ["GITHUB_ACTIONS": "true"]) != Self.forged)
    }

    @Test func aFileNameWithANewlineOrBackticksStaysInsideItsCodeSpanInTheJobSummary() {
        let span = JobSummary.codeSpan("evil`\n## Injected\n``x.json")
        #expect(!span.contains("\n"))
        #expect(span.hasPrefix("```evil` ") && span.hasSuffix("``x.json```"), "\(span)")
        #expect(JobSummary.codeSpan("`edge`") == "`` `edge` ``")
        #expect(JobSummary.codeSpan("plain.json:3") == "`plain.json:3`")
    }
}
