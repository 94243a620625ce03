import ContractKit
import Foundation
import Testing

@testable import CIReports

/// Workflow commands follow the runner's escaping: `%`, CR, LF in the message; also `:` and `,` in properties.
@Suite struct GitHubAnnotationsTests {
    @Test func dataEscapesPercentAndLineBreaksOnly() {
        #expect(GitHubAnnotations.escapeData("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b")
        #expect(GitHubAnnotations.escapeData("%0A stays literal") == "%250A stays literal")
    }

    @Test func propertiesEscapeColonsAndCommasToo() {
        #expect(GitHubAnnotations.escapeProperty("a: b, c%\n") == "a%3A b%2C c%25%0A")
    }

    @Test func aFailureIsAnErrorOnItsFileLineAndColumn() {
        let line = GitHubAnnotations.line(CIReportFixture.failing)
        #expect(line == "::error file=scenarios/photo-503.json,line=14,col=5,title=photo 503 | shows <b>wrong</b> alert::"
            + "step 2 (submit) at /steps/1:%0A  alert kind: expected serverError, got noConnection%0A  journal:%0A    #1 POST /api/v1/announcements → 503 ```x```")
    }

    @Test func aTitleWithCommasAndColonsCannotStartANewProperty() {
        let result = CIResult(name: "createAnnouncement: typeChanged, x", suite: [], status: .failed, message: "m",
                              location: CILocation(file: "contracts/a,b.json"))
        #expect(GitHubAnnotations.line(result) == "::error file=contracts/a%2Cb.json,title=createAnnouncement%3A typeChanged%2C x::m")
    }

    @Test func onlyResultsWithALevelAreAnnotatedAndOnlyInGitHubActions() {
        let lines = GitHubAnnotations.lines(CIReportFixture.report)
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("::notice file=contracts/known-defects.json,line=3,col=5,title=duplicate microchip::known server defect"))
        #expect(GitHubAnnotations.isEnabled(in: ["GITHUB_ACTIONS": "true"]))
        #expect(!GitHubAnnotations.isEnabled(in: [:]) && !GitHubAnnotations.isEnabled(in: ["GITHUB_ACTIONS": "false"]))
    }
}
