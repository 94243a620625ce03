import ContractKit
import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

/// A fourth client profile needs no Swift: a made-up flow and its library in a temporary folder run with
/// `spotcheck run --profile <path>`, and `lint --profile` refuses scenarios written for another profile or flow, or
/// using what the profile lacks.
@Suite struct FourthProfileCommandTests {
    static let repository = RunCommandTests.repository
    static let contracts = RunCommandTests.contracts

    /// A scenario of the made-up flow, as JSON text.
    static func scenario(_ name: String, profile: String = "sighting-report", flow: String = "reportSighting", overrides: String = "{}", steps: String) -> String {
        """
        {"name": "\(name)", "profile": "\(profile)", "flow": "\(flow)", "tags": ["sighting"], "report": "default",
         "reportOverrides": \(overrides), "steps": \(steps)}
        """
    }

    static let happy = scenario("sighting: both steps answer 201", steps: """
        [{"action": "submit", "expect": {"outcome": "success", "screen": "summary",
          "journal": {"order": ["createAnnouncement", "uploadPhoto"], "authUserIsCreatedId": true, "sentReport": true},
          "because": "the made-up sighting spec, rule 1: a sighting is the create then the upload"}}]
        """)
    static let shortPhone = scenario("sighting: a short phone sends nothing", overrides: #"{"phone": "123"}"#, steps: """
        [{"action": "submit", "expect": {"outcome": "invalid", "journal": {"noRequests": true},
          "because": "the made-up sighting spec, rule 2: a phone needs 7 digits"}}]
        """)

    /// `<temp>/sighting-report/`: a profile made from the default one (another name, authority and flow), the bundled
    /// fixtures, and `scenarios` by file name.
    static func folder(_ scenarios: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-fourth-\(UUID().uuidString)", isDirectory: true)
        let folder = root.appendingPathComponent("sighting-report", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bundled = repository.appendingPathComponent("scenarios")
        var document = try #require(try JSONValue(parsing: Data(contentsOf: bundled.appendingPathComponent("ios-missing-pet/profile.json"))).objectValue)
        document["profile"] = "sighting-report"
        document["library"] = nil
        document["authority"] = "the made-up sighting spec"
        document["summary"] = "A made-up flow: report that a pet was seen."
        var flow = try #require(document["flow"]?.objectValue)
        flow["name"] = "reportSighting"
        document["flow"] = .object(flow)
        try Data(JSONValue.object(document).serialized().utf8).write(to: folder.appendingPathComponent("profile.json"))
        try FileManager.default.copyItem(at: bundled.appendingPathComponent("fixtures"), to: folder.appendingPathComponent("fixtures"))
        for (file, text) in scenarios { try Data(text.utf8).write(to: folder.appendingPathComponent(file)) }
        return folder
    }

    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let command = try RunCommand.parse(["--contracts", contracts] + arguments)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) })
        return (code, lines.text)
    }

    @Test func aMadeUpProfileAndItsLibraryRunByPath() async throws {
        let folder = try Self.folder(["sighting-happy.json": Self.happy, "sighting-short-phone.json": Self.shortPhone])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let (code, output) = try await Self.run(["--profile", folder.path, "--jobs", "1"])
        #expect(code == 0, "\(output)")
        #expect(output.contains("2 scenarios: 2 passed, 0 failed"), "\(output)")
        #expect(output.contains("sighting: a short phone sends nothing"), "\(output)")
        let lint = LintCommand.execute(directory: Self.contracts, scenarios: folder.path, profile: folder.path)
        #expect(lint.exitCode == 0, "\(lint.output)")
        #expect(lint.output.contains("client profile sighting-report, no problems"), "\(lint.output)")
    }

    @Test func aScenarioForAnotherProfileIsRefusedBeforeAnythingRuns() async throws {
        let other = Self.scenario("written for the seeds", profile: "ios-missing-pet", flow: "reportMissing", steps: #"[{"action": "submit", "expect": {"outcome": "success"}}]"#)
        let folder = try Self.folder(["sighting-happy.json": Self.happy, "other.json": other])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let (code, output) = try await Self.run(["--profile", folder.path])
        #expect(code == 2, "\(output)")
        #expect(output.contains("other.json:/profile: the scenario needs the profile ios-missing-pet"), "\(output)")
        #expect(output.contains("other.json:/flow: the scenario needs the flow reportMissing"), "\(output)")
    }

    @Test func lintRefusesAScenarioUsingAFieldOrAStepTheProfileLacks() throws {
        let found = Self.repository.appendingPathComponent("scenarios/ios-found-pet/profile.json").path
        let web = Self.repository.appendingPathComponent("scenarios/web-missing-pet/profile.json").path
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-fourth-lint-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("scenarios/fixtures"), to: root.appendingPathComponent("fixtures"))
        // The found flow has no reward; the web flow has no Cancel (its failures show a toast, and Continue sends again).
        let reward = Self.scenario("types a reward", profile: "ios-found-pet", flow: "reportFound", steps: """
            [{"action": "editField", "field": "reward", "value": "100", "expect": {"outcome": "edited"}}]
            """)
        try Data(reward.utf8).write(to: root.appendingPathComponent("reward.json"))
        var lint = LintCommand.execute(directory: Self.contracts, scenarios: root.path, profile: found)
        #expect(lint.exitCode == 2, "\(lint.output)")
        #expect(lint.output.contains("reward.json:/steps/0/field: the field \"reward\" is on no step of the reportFound flow"), "\(lint.output)")

        try FileManager.default.removeItem(at: root.appendingPathComponent("reward.json"))
        let cancel = Self.scenario("cancels a toast", profile: "web-missing-pet", flow: "reportMissing", steps: """
            [{"action": "submit", "expect": {"outcome": "failure"}}, {"action": "cancel", "expect": {"outcome": "cancelled"}}]
            """)
        try Data(cancel.utf8).write(to: root.appendingPathComponent("cancel.json"))
        lint = LintCommand.execute(directory: Self.contracts, scenarios: root.path, profile: web)
        #expect(lint.exitCode == 2, "\(lint.output)")
        #expect(lint.output.contains("cancel.json:/steps/1/action: \"cancel\" needs a failure affordance that keeps the user on the form (stayOnForm)"), "\(lint.output)")
    }
}
