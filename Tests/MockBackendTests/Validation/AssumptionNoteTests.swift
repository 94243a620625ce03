import ContractKit
import Foundation
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// What the model assumed travels with its answers (`x-spotcheck-assumption`), and a difference from an assumed answer
/// is a note in the live checks' log, headers and lines, never a violation (design.md, "Verdicts").
@Suite struct AssumptionNoteTests {
    @Test func assumptionsCrossTheHeaderWholeEvenBeyondASCII() {
        let sentences = ["createAnnouncement /request/body/properties/petName: no x-errors for maxLength; answered the contract's first 400",
                         "«ünïcode» — 100% kept\r\nwith a line break"]
        var headers = HTTPHeaders()
        AssumptionHeader.add(sentences, to: &headers)
        let lines = headers[AssumptionHeader.name]
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) } }, "\(lines)")
        #expect(AssumptionHeader.assumptions(in: headers.map { ($0.name, $0.value) }) == sentences)
    }

    @Test func tooManyAssumptionsAreCappedAndSaySo() {
        var headers = HTTPHeaders()
        AssumptionHeader.add((1...10).map { "assumption \($0)" }, to: &headers)
        let decoded = AssumptionHeader.assumptions(in: headers.map { ($0.name, $0.value) })
        #expect(decoded.count == AssumptionHeader.maxLines + 1)
        #expect(decoded.last == "and 2 more assumption(s)")
    }

    @Test func aDifferenceFromAnAssumedAnswerIsANoteNotAViolation() {
        let note = ExchangeViolation(contract: "createAnnouncement", pointer: "/error", expected: "400 INVALID_FORMAT petName \"too long\"",
                                     got: "400 INVALID_FORMAT petName \"petName is too long\"", side: .server, assumptions: ["no x-errors for maxLength"])
        let violation = ExchangeViolation(contract: "createAnnouncement", pointer: "status", expected: "201", got: "400", side: .server)
        #expect(note.isNote && !note.isViolation)
        #expect(!violation.isNote && violation.isViolation)
        #expect(note.line.hasPrefix("note [server] createAnnouncement /error"))
        #expect(note.line.hasSuffix("; the model assumed: no x-errors for maxLength"))

        let log = ViolationLog()
        log.add(JournalEntry(time: Date(), method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 400,
                             authUser: nil, rule: nil, fault: nil, durationMs: 1, violations: [note]))
        #expect(log.totals.notes == 1 && log.totals.violations == 0 && log.totals.knownDefects == 0 && log.totals.failedExchanges == 0)
        log.add(JournalEntry(time: Date(), method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 400,
                             authUser: nil, rule: nil, fault: nil, durationMs: 1, violations: [violation, note]))
        #expect(log.totals.notes == 2 && log.totals.violations == 1 && log.totals.failedExchanges == 1)
        #expect(log.json()["violations"]?.arrayValue?.first?["assumptions"] == .array(["no x-errors for maxLength"]))

        var headers = HTTPHeaders()
        ViolationHeader.add([note, violation], to: &headers)
        #expect(headers[ViolationHeader.noteName].count == 1)
        #expect(headers[ViolationHeader.name].count == 1)

        // Journals written before notes existed still decode, with no assumptions.
        let old = #"{"contract":"c","pointer":"status","expected":"201","got":"400","side":"server"}"#
        let decoded = try? JSONDecoder().decode(ExchangeViolation.self, from: Data(old.utf8))
        #expect(decoded?.assumptions == nil && decoded?.isViolation == true)
    }
}
