import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// The shipped `ios-found-pet` profile (069 and KAN-34): it loads and lints clean, and it judges by its own rules, not
/// the seeds' (the status FOUND, both contacts required, a caregiver's phone checked only when typed).
@Suite struct FoundPetProfileTests {
    static func profile() throws -> ClientProfile {
        try ClientProfile.load("ios-found-pet", scenariosDirectory: ScenarioLibrary.bundledDirectory)
    }

    static func check(_ body: String, _ profile: ClientProfile) -> [Mismatch] {
        let record = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 201,
                                   authUser: nil, fault: nil, contentType: "application/json", bodyText: body, bodySize: body.utf8.count)
        return SentReportCheck(report: ReportData(fields: JSONObject(), photo: nil), inputs: [:], profile: profile).check(record)
    }

    @Test func itLoadsAndTheContractsAllowEveryRule() throws {
        let profile = try Self.profile()
        #expect(profile.flow.name == "reportFound")
        #expect(profile.success.shows == .close && profile.success.managementPassword == nil)
        #expect(ClientProfile.available(in: ScenarioLibrary.bundledDirectory).contains("ios-found-pet"))
        let problems = ProfileLinter.lint(profile, contracts: try EngineTestSupport.contracts())
        #expect(problems.isEmpty, "\(problems.map(\.description))")
    }

    @Test func aMissingStatusFailsCitingKAN34() throws {
        let profile = try Self.profile()
        let status = try #require(Self.check("{\"status\":\"MISSING\"}", profile).first { $0.subject == "sent status of #1" })
        #expect(status.expected == "\"FOUND\" (a found-pet report)")
        #expect(status.why?.contains("KAN-34 send FR-004") == true, "\(status.why ?? "")")
        #expect(!Self.check("{\"status\":\"FOUND\"}", profile).contains { $0.subject == "sent status of #1" })
    }

    @Test func bothContactsAreRequiredAndTheCaregiversPhoneOnlyWhenTyped() throws {
        let profile = try Self.profile()
        #expect(SeedInputRules.verdict(field: "phone", value: "", in: profile) == .invalid(rule: "KAN-34 send FR-008; KAN-34 align FR-010 (your phone number is required)"))
        #expect(SeedInputRules.verdict(field: "email", value: " ", in: profile).isInvalid)
        #expect(SeedInputRules.verdict(field: "caregiverPhone", value: "", in: profile) == .valid)
        #expect(SeedInputRules.verdict(field: "caregiverPhone", value: "12", in: profile).isInvalid)
        #expect(SeedInputRules.verdict(field: "phone", value: "(12) 345-6789", in: profile) == .valid)
        // The seeds' profile treats parentheses as symbols its lines disagree on; the found flow ignores every character
        // but the digits (KAN-34 Clarifications: "allow +, ignore other chars"), letters and tabs too, as the real app does.
        #expect(SeedInputRules.verdict(field: "phone", value: "(12) 345-6789") != .valid)
        #expect(SeedInputRules.verdict(field: "phone", value: "600a700.800", in: profile) == .valid)
        #expect(SeedInputRules.verdict(field: "caregiverPhone", value: "\t0700800", in: profile) == .valid)
        // Not empty, so checked: spaces hold no digit.
        #expect(SeedInputRules.verdict(field: "caregiverPhone", value: "  ", in: profile).isInvalid)
        // Whether a digit of another script counts is open: 6 ASCII digits and one Arabic-Indic are judged both ways.
        #expect(!SeedInputRules.verdict(field: "caregiverPhone", value: "600700٣", in: profile).isValid)
        #expect(!SeedInputRules.verdict(field: "caregiverPhone", value: "600700٣", in: profile).isInvalid)
        #expect(SeedInputRules.verdict(field: "caregiverPhone", value: "600700800٣", in: profile) == .valid)
    }

    @Test func sendingTheCaregiversPhoneIsImpossible() throws {
        let document = try JSONValue(parsing: Data(contentsOf: ClientProfile.file(named: "ios-found-pet", in: ScenarioLibrary.bundledDirectory)))
        var root = try #require(document.objectValue)
        var flow = try #require(root["flow"]?.objectValue)
        var report = try #require(flow["report"]?.objectValue)
        var values = report["values"]?.arrayValue ?? []
        values.append(["field": "caregiverPhone", "check": "enteredWhenSent", "citation": "made up: KAN-34 align FR-016 says the opposite"])
        report["values"] = .array(values)
        flow["report"] = .object(report)
        root["flow"] = .object(flow)
        let profile = try ClientProfileParser().parse(.object(root), directory: URL(fileURLWithPath: "/tmp"), displayPath: "ios-found-pet/profile.json")
        let problems = ProfileLinter.lint(profile, contracts: try EngineTestSupport.contracts())
        #expect(problems.map(\.pointer) == ["/flow/report/values/\(values.count - 1)/field"], "\(problems.map(\.description))")
    }
}
