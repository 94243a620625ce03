import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// The create body against the report: every reasonable reading of the seeds passes, each real bug is named.
@Suite struct SentReportCheckTests {
    static func check(_ body: String, inputs: [String: String] = ["phone": " +48 123-456-789 ", "email": " Owner@Example.com ", "reward": "  $5 "],
                      contentType: String = "application/json") throws -> [String] {
        let report = try EngineTestSupport.scenario("happy-path.json").report
        let record = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 201,
                                   authUser: nil, fault: nil, contentType: contentType, bodyText: body, bodySize: body.utf8.count)
        return SentReportCheck(report: report, inputs: inputs).check(record).map(\.description)
    }

    static let base = #""species": "DOG", "sex": "male", "locationLatitude": 52.2297, "locationLongitude": 21.0122, "lastSeenDate": "2025-11-01", "status": "MISSING", "description": "Friendly, answers to Rex, red collar.""#

    @Test func trimmedOrDigitOnlyContactsAndAnyCaseChoicesPass() throws {
        #expect(try Self.check(#"{\#(Self.base), "phone": "+48123456789", "email": "owner@example.com", "reward": "  $5 "}"#) == [])
        #expect(try Self.check(#"{\#(Self.base), "phone": " +48 123-456-789 ", "email": " Owner@Example.com ", "reward": "  $5 ", "breed": "Beagle", "age": 3}"#) == [])
    }

    @Test func eachDeviationIsNamed() throws {
        let problems = try Self.check(#"{"species": "cat", "sex": "MALE", "locationLatitude": "52.2297", "locationLongitude": 21.0122, "lastSeenDate": "11/01/2025", "status": "FOUND", "phone": "+48 000", "reward": "$5", "age": 4, "description": "x"}"#,
                                      contentType: "text/plain")
        let text = problems.joined(separator: "\n")
        #expect(text.contains("Content-Type of #1: expected application/json"))
        #expect(text.contains("sent status of #1: expected \"MISSING\""))
        #expect(text.contains("sent lastSeenDate of #1: expected \"2025-11-01\" (YYYY-MM-DD), got \"11/01/2025\" (not YYYY-MM-DD)"))
        #expect(text.contains("sent species of #1: expected \"dog\" (any case), got \"cat\""))
        #expect(text.contains("sent locationLatitude of #1: expected 52.2297 (a JSON number), got \"52.2297\""))
        #expect(text.contains("sent reward of #1: expected the reward input \"  $5 \" verbatim, got \"$5\""))
        #expect(text.contains("sent email of #1: expected the email input"), "absent although entered: \(text)")
        #expect(text.contains("sent phone of #1"))
        #expect(text.contains("sent age of #1: expected 3 or absent, got 4"))
        #expect(text.contains("sent description of #1"))
    }

    @Test func anEmptyInputMayBeAbsentNullOrEmpty() throws {
        let inputs = ["phone": "+48 123-456-789", "email": "", "reward": ""]
        #expect(try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "email": null, "reward": ""}"#, inputs: inputs) == [])
        #expect(try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "reward": "old reward"}"#, inputs: inputs)
            == ["sent reward of #1: expected absent or empty (the input is empty), got \"old reward\""])
    }
}
