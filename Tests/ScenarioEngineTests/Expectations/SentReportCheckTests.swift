import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// The create body against the report: every reasonable reading of the seeds passes, each real bug is named.
@Suite struct SentReportCheckTests {
    static func check(_ body: String, inputs: [String: String] = ["phone": " +48 123-456-789 ", "email": " Owner@Example.com ", "reward": "  $5 "],
                      contentType: String = "application/json", profile: ClientProfile = .bundledDefault) throws -> [String] {
        let report = try EngineTestSupport.scenario("happy-path.json").report
        let record = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 201,
                                   authUser: nil, fault: nil, contentType: contentType, bodyText: body, bodySize: body.utf8.count)
        return SentReportCheck(report: report, inputs: inputs, profile: profile).check(record).map(\.description)
    }

    static let base = #""species": "DOG", "sex": "male", "locationLatitude": 52.2297, "locationLongitude": 21.0122, "lastSeenDate": "2025-11-01", "status": "MISSING", "description": "Friendly, answers to Rex, red collar.""#

    @Test func trimmedOrDigitOnlyContactsAndAnyCaseChoicesPass() throws {
        #expect(try Self.check(#"{\#(Self.base), "phone": "+48123456789", "email": "owner@example.com", "reward": "  $5 "}"#) == [])
        #expect(try Self.check(#"{\#(Self.base), "phone": " +48 123-456-789 ", "email": "Owner@Example.com", "reward": "  $5 ", "breed": "Beagle", "age": 3}"#) == [])
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
    /// Seed 001 FR-005: the email is case-insensitive and trimmed, so a lower-cased domain (or all of it) is the input,
    /// and what is sent is trimmed: a space or tab left at either end fails (the real iOS app trims before it sends).
    @Test func anEmailInAnyCaseTrimmedPassesAndOneStillPaddedFails() throws {
        let inputs = ["phone": "+48 123-456-789", "email": " \tOwner@Example.COM\n ", "reward": ""]
        // A trim of spaces and tabs only (Swift's .whitespaces) leaves the newline; no seed line says which trim.
        for sent in ["Owner@example.com", "owner@example.com", "OWNER@EXAMPLE.COM", "Owner@Example.COM\\n"] {
            #expect(try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "email": "\#(sent)"}"#, inputs: inputs) == [], "\(sent)")
        }
        for sent in [" OWNER@EXAMPLE.COM", "Owner@Example.COM ", "\\tOwner@Example.COM", " \\tOwner@Example.COM\\n "] {
            let problems = try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "email": "\#(sent)"}"#, inputs: inputs)
            #expect(problems.count == 1 && problems[0].contains("in any case, without surrounding spaces or tabs"), "\(sent): \(problems)")
        }
        let other = try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "email": "owner2@example.com"}"#, inputs: inputs)
        #expect(other.first?.hasPrefix("sent email of #1: expected the email input") == true && other.first?.hasSuffix(#"got "owner2@example.com""#) == true)
    }

    /// A profile whose source states no trim of what is sent (the web flow's 041 FR-005 trims for validation, and the
    /// web app sends the field as typed) accepts the email with or without surrounding whitespace.
    @Test func aProfileWithoutASentTrimAcceptsTheEmailPadded() throws {
        let web = try ClientProfile.load("web-missing-pet", scenariosDirectory: ScenarioLibrary.bundledDirectory)
        #expect(web.flow.report.value("email")?.check == .emailInput)
        let inputs = ["phone": "+48 123-456-789", "email": " Owner@Example.COM ", "reward": ""]
        for sent in ["owner@example.com", " OWNER@EXAMPLE.COM", "Owner@Example.COM "] {
            let problems = try Self.check(#"{\#(Self.base), "phone": "+48 123-456-789", "email": "\#(sent)"}"#, inputs: inputs, profile: web)
            #expect(!problems.contains { $0.hasPrefix("sent email") }, "\(sent): \(problems)")
        }
    }

    /// Seed 001 FR-004: the phone's formatting is the UI's, so any formatting of the same digits passes; a digit or a
    /// character the user never typed does not.
    @Test func aPhoneInAnyFormattingOfItsDigitsPasses() throws {
        let inputs = ["phone": "+48 123-456-789", "email": "a@b.co", "reward": ""]
        for sent in ["+48123456789", "+48 123 456 789", "+48123-456-789", "+48 123-456-789"] {
            #expect(try Self.check(#"{\#(Self.base), "phone": "\#(sent)", "email": "a@b.co"}"#, inputs: inputs) == [], "\(sent)")
        }
        for sent in ["48123456789", "+48 (123) 456-789", "+48123456780"] {
            #expect(try Self.check(#"{\#(Self.base), "phone": "\#(sent)", "email": "a@b.co"}"#, inputs: inputs).count == 1, "\(sent)")
        }
    }

    /// Every failed sent-value check quotes the seed file and requirement that make it strict.
    @Test func eachFailedCheckCitesItsSeedLine() throws {
        let report = try EngineTestSupport.scenario("happy-path.json").report
        let body = #"{"species": "cat", "sex": "MALE", "locationLatitude": 1, "locationLongitude": 21.0122, "lastSeenDate": "2025-11-02", "status": "FOUND", "phone": "+48 000", "email": "x@y.zz", "reward": "$5", "age": 4}"#
        let record = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 201,
                                   authUser: nil, fault: nil, contentType: "application/json", bodyText: body, bodySize: body.utf8.count)
        let mismatches = SentReportCheck(report: report, inputs: ["phone": "+48 123-456-789", "email": "owner@example.com", "reward": " $5"]).check(record)
        let why = Dictionary(mismatches.map { ($0.subject, $0.why ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(why["sent email of #1"]?.contains("seed 001 FR-005") == true, "\(why)")
        #expect(why["sent phone of #1"]?.contains("seed 001 FR-004") == true)
        #expect(why["sent reward of #1"]?.contains("seed 001 FR-006") == true)
        #expect(why["sent status of #1"]?.contains("seed 001 Key Entities") == true)
        #expect(why["sent lastSeenDate of #1"]?.contains("seed 004 FR-003") == true)
        #expect(why["sent species of #1"]?.contains("seed 001 Key Entities") == true)
        #expect(why["sent locationLatitude of #1"]?.contains("seed 001 FR-003") == true)
        #expect(why["sent age of #1"]?.contains("seed 001 Key Entities") == true)
        #expect(mismatches.allSatisfy { $0.why?.contains("seed 00") == true }, "\(mismatches.map(\.subject))")
    }
}
