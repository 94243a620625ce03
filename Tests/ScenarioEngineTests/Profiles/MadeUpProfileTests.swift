import ContractKit
import Foundation
import Testing

@testable import ClientDoubles
@testable import ReferenceClientDriver
@testable import ScenarioEngine

/// A fourth profile needs no Swift: a made-up flow in a temporary folder (its own alert text, status and flow name)
/// judges its own small library, a client that follows it passes, and one that shows the default's text fails citing it.
@Suite struct MadeUpProfileTests {
    static let text = "Oops, that did not work. Try again in a while."

    /// A scratch scenarios folder with the profile `made-up-flow`: the default profile with another generic text and
    /// flow name, and a one-scenario library (the bundled 500-then-Try-Again scenario) beside it.
    static func folder() throws -> (root: URL, profile: ClientProfile) {
        let root = try EngineTestSupport.temporaryDirectory()
        let folder = root.appendingPathComponent("made-up-flow", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var document = try #require(try ClientProfileTests.bundledDocument().objectValue)
        document["profile"] = "made-up-flow"
        document["library"] = nil
        document["authority"] = "the made-up spec"
        var flow = try #require(document["flow"]?.objectValue)
        flow["name"] = "reportSighting"
        document["flow"] = .object(flow)
        var failures = try #require(document["failures"]?.objectValue)
        var feedback = try #require(failures["feedback"]?.objectValue)
        var generic = try #require(feedback["generic"]?.objectValue)
        generic["text"] = .string(text)
        feedback["generic"] = .object(generic)
        failures["feedback"] = .object(feedback)
        document["failures"] = .object(failures)
        try Data(JSONValue.object(document).serialized().utf8).write(to: folder.appendingPathComponent("profile.json"))
        let bundled = ScenarioLibrary.bundledDirectory
        try FileManager.default.copyItem(at: bundled.appendingPathComponent("fault-step1-500.json"), to: folder.appendingPathComponent("fault-step1-500.json"))
        try FileManager.default.copyItem(at: bundled.appendingPathComponent("fixtures"), to: folder.appendingPathComponent("fixtures"))
        return (root, try ClientProfile.load("made-up-flow", scenariosDirectory: root))
    }

    /// The reference client with the generic alert's text replaced by `text`.
    struct ShowsText: ClientDriver {
        let text: String
        var description: String { "shows \"\(text)\"" }
        func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
            #expect(context.flow == "reportSighting", "start carries the profile's flow")
            let text = self.text
            return Rewriting(inner: try await PetSpotClientDriver().open(context)) { _, observation in
                var o = observation
                if let alert = o.alert, alert.kind == "generic" { o.alert = ObservedAlert(kind: "generic", message: text, buttons: alert.buttons) }
                return o
            }
        }
    }

    static func run(_ driver: any ClientDriver, profile: ClientProfile) async throws -> RunReport {
        let library = try ScenarioLibrary.load(from: profile.libraryDirectory)
        var runner = ScenarioRunner(driver: driver, targets: EmbeddedBackendProvider(contracts: try EngineTestSupport.contracts()), seed: 1)
        runner.profile = profile
        return await SuiteRunner(runner: runner, jobs: 1).run(library.scenarios.map(EngineTestSupport.relaxed))
    }

    @Test func aClientFollowingTheMadeUpProfilePassesItsLibrary() async throws {
        let (root, profile) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(ClientProfile.available(in: root) == ["made-up-flow"])
        let report = try await Self.run(ShowsText(text: Self.text), profile: profile)
        #expect(report.results.count == 1)
        #expect(report.results.allSatisfy { $0.status == .passed }, "\(report.results.map { $0.failure?.message ?? "" })")
    }

    @Test func aClientShowingTheDefaultTextFailsCitingTheMadeUpProfile() async throws {
        let (root, profile) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try await Self.run(ShowsText(text: SeedAlertPolicy.Alert.generic.text), profile: profile)
        let message = report.results.first?.failure?.message ?? "(no failure)"
        #expect(report.results.first?.status == .failed)
        #expect(message.contains("alert message: expected \"\(Self.text)\""), "\(message)")
    }
}
