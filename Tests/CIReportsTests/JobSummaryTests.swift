import ContractKit
import Foundation
import Testing

@testable import CIReports

/// The Markdown job summary: verdict, counts, each failure with its place and details, the rest folded; nothing in a
/// name or message can change the Markdown around it.
@Suite struct JobSummaryTests {
    let markdown = JobSummary.markdown(CIReportFixture.report)

    @Test func aFailingRunLeadsWithItsVerdictAndCounts() {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "## ❌ spotcheck run: 1 failed")
        #expect(lines.contains("client: PetSpotClient; target: embedded mock backend  "))
        #expect(lines.contains("| 5 | 2 | 1 | 1 | 1 | 3.50 s |"))
    }

    @Test func eachFailureShowsItsPlaceMessageAndDetailsInAFenceLongerThanAnyBackticksInside() {
        #expect(markdown.contains("### Failed\n\n- **photo 503 \\| shows \\<b\\>wrong\\</b\\> alert** `scenarios/photo-503.json:14`: "
            + "step 2 (submit): alert kind: expected serverError, got noConnection\n"))
        // The details hold ``` themselves, so the fence is four backticks.
        #expect(markdown.contains("  ````text\n  step 2 (submit) at /steps/1:\n    alert kind: expected serverError, got noConnection\n"))
        #expect(markdown.contains("→ 503 ```x```\n  ````\n"))
    }

    @Test func notesAndTheRestAreListedApart() {
        #expect(markdown.contains("### Notes\n\n- **duplicate microchip** `contracts/known-defects.json:3`: known server defect, not drift\n"))
        #expect(markdown.contains("<details><summary>1 skipped</summary>\n\n- needs fixtures — a proxy cannot set up fixtures\n"))
        #expect(markdown.contains("<details><summary>2 passed</summary>\n\n- create succeeds\n- \n"))
        #expect(markdown.hasSuffix("</details>\n\n"), "a blank line ends the HTML block before the next summary")
    }

    @Test func aPassingRunSaysPassed() {
        var report = CIReportFixture.report
        report.results.removeAll { $0.status == .failed }
        #expect(JobSummary.markdown(report).hasPrefix("## ✅ spotcheck run: passed\n"))
        #expect(!JobSummary.markdown(report).contains("### Failed"))
    }

    @Test func inlineTextCannotOpenMarkupOrBreakATableRow() {
        #expect(JobSummary.inline("a|b <script> *x* [l](u)\nnext") == "a\\|b \\<script\\> \\*x\\* \\[l\\](u) next")
        #expect(JobSummary.codeBlock("plain") == "```text\nplain\n```\n")
    }
}
