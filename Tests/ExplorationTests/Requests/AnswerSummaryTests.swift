import Foundation
import MockBackend
import Testing
@testable import Exploration

/// A case's answer summary reads the error envelope, and skips parsing only bodies that cannot hold one.
@Suite struct AnswerSummaryTests {
    static func answer(_ status: Int, _ body: String) -> ExactHTTPClient.Answer {
        ExactHTTPClient.Answer(status: status, headers: [], body: Data(body.utf8))
    }

    @Test func anErrorEnvelopeIsSummarisedEvenWhenItsKeyIsEscaped() {
        #expect(AnswerComparison.summary(Self.answer(400, #"{"error": {"code": "BAD", "field": "email", "message": "no"}}"#)) == #"400 BAD email "no""#)
        #expect(AnswerComparison.summary(Self.answer(400, #"{"\u0065rror": {"code": "BAD"}}"#)) == "400 BAD")
        #expect(AnswerComparison.summary(Self.answer(200, #"{"data": [{"id": "a"}]}"#)) == "200")
    }

    @Test func onlyABodyWithoutTheWordOrAnEscapeIsLeftUnparsed() {
        #expect(AnswerComparison.mayHoldError(Data(#"{"error": 1}"#.utf8)))
        #expect(AnswerComparison.mayHoldError(Data(#"{"\u0065rror": 1}"#.utf8)))
        #expect(!AnswerComparison.mayHoldError(Data(#"{"data": [{"id": "a"}]}"#.utf8)))
    }
}
