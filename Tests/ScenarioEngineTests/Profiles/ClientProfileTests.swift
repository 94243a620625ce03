import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// The client profile as data: the bundled default loads and matches its published schema's keys, and a broken profile
/// is refused with every problem at its file and JSON pointer, as contracts and scenarios are.
@Suite struct ClientProfileTests {
    static func bundledDocument() throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: ClientProfile.file(named: ClientProfile.defaultName, in: ScenarioLibrary.bundledDirectory)))
    }

    /// The default profile with `edit` applied, parsed; the problems when it does not load.
    static func parse(_ edit: (inout JSONObject) -> Void) throws -> Result<ClientProfile, ScenarioLoadError> {
        var root = try #require(try bundledDocument().objectValue)
        edit(&root)
        do {
            return .success(try ClientProfileParser().parse(.object(root), directory: URL(fileURLWithPath: "/tmp"), displayPath: "test/profile.json"))
        } catch {
            return .failure(error)
        }
    }

    @Test func theBundledDefaultLoadsWithARulingForEveryCause() {
        let profile = ClientProfile.bundledDefault
        #expect(profile.name == "ios-missing-pet")
        #expect(profile.libraryDirectory.standardizedFileURL.path == ScenarioLibrary.bundledDirectory.standardizedFileURL.path)
        for cause in SeedAlertPolicy.Cause.allCases { #expect(!SeedAlertPolicy.readings(for: cause).isEmpty, "\(cause)") }
        #expect(Set(SeedAlertPolicy.readings(for: .timedOut).map(\.alert)) == [.noConnection, .generic])
        #expect(SeedAlertPolicy.readings(for: .httpStatus).map(\.alert) == [.generic])
    }

    @Test func theSchemaPublishedBesideItNamesTheParsersKeys() throws {
        let url = ScenarioLibrary.bundledDirectory.appendingPathComponent("schema/client-profile.schema.json")
        let schema = try JSONValue(parsing: Data(contentsOf: url))
        let keys = try #require(schema["properties"]?.objectValue).keys
        #expect(Set(keys) == Set(ClientProfileParser.topLevelKeys))
        let causes = try #require(schema["properties"]?["failures"]?["properties"]?["causes"]?["required"]?.arrayValue).compactMap(\.stringValue)
        #expect(Set(causes) == Set(ClientProfileParser.causeNames))
    }

    /// Every `enum` in the published schema, at its JSON pointer.
    static func schemaEnums(_ value: JSONValue, at pointer: String = "") -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        switch value {
        case .object(let object):
            for (key, child) in object {
                if key == "enum", let values = child.arrayValue {
                    found[pointer] = Set(values.compactMap(\.stringValue))
                } else {
                    found.merge(schemaEnums(child, at: pointer + "/" + key)) { a, _ in a }
                }
            }
        case .array(let items):
            for (i, child) in items.enumerated() { found.merge(schemaEnums(child, at: pointer + "/\(i)")) { a, _ in a } }
        default:
            break
        }
        return found
    }

    /// An editor validating a profile against the schema must accept exactly what the parser accepts: a case added to one
    /// of the profile's enums (as trimmedEmailInput was) and not to the schema, or the other way round, fails here.
    @Test func theSchemasEnumsAreTheParsersCases() throws {
        let url = ScenarioLibrary.bundledDirectory.appendingPathComponent("schema/client-profile.schema.json")
        let enums = Self.schemaEnums(try JSONValue(parsing: Data(contentsOf: url)))
        func cases<E: CaseIterable & RawRepresentable>(_: E.Type) -> Set<String> where E.RawValue == String {
            Set(E.allCases.map(\.rawValue))
        }
        let expected: [(suffix: String, cases: Set<String>)] = [
            ("/values/items/properties/check", cases(ClientProfile.SentValueCheck.self)),
            ("/inputRule/properties/kind", cases(ClientProfile.InputRule.Kind.self)),
            ("/inputRule/properties/format", ["email"]),
            ("/properties/does", cases(ClientProfile.Affordance.Effect.self)),
            ("/properties/shows", cases(ClientProfile.Success.Shows.self)),
        ]
        for (suffix, cases) in expected {
            let matching = enums.filter { $0.key.hasSuffix(suffix) }
            #expect(matching.count == 1, "one enum at …\(suffix); found \(matching.keys.sorted())")
            #expect(matching.first?.value == cases, "…\(suffix)")
        }
        let feedbackKinds = enums.filter { $0.key.hasSuffix("/kind") && !$0.key.hasSuffix("/inputRule/properties/kind") }
        #expect(feedbackKinds.map(\.value) == [cases(ClientProfile.Feedback.Kind.self)], "\(feedbackKinds.keys.sorted())")
        #expect(enums.count == expected.count + 1, "an enum the test does not compare: \(enums.keys.sorted())")
    }

    @Test func aBrokenProfileIsRefusedWithEveryProblemAtItsPointer() throws {
        let result = try Self.parse { root in
            root["colour"] = "blue"
            var failures = root["failures"]?.objectValue ?? JSONObject()
            var causes = failures["causes"]?.objectValue ?? JSONObject()
            causes["timedOut"] = ["t044NoConnection", "noSuchReading"]
            causes["httpStatus"] = nil
            failures["causes"] = .object(causes)
            var feedback = failures["feedback"]?.objectValue ?? JSONObject()
            var generic = feedback["generic"]?.objectValue ?? JSONObject()
            generic["kind"] = nil
            feedback["generic"] = .object(generic)
            failures["feedback"] = .object(feedback)
            root["failures"] = .object(failures)
        }
        guard case .failure(let error) = result else {
            Issue.record("a broken profile must be refused")
            return
        }
        let lines = error.problems.map(\.description)
        #expect(error.problems.allSatisfy { $0.file == "test/profile.json" }, "\(lines)")
        #expect(error.problems.contains { $0.pointer == "/colour" && $0.message.contains("unknown key") }, "\(lines)")
        #expect(error.problems.contains { $0.pointer == "/failures/causes/timedOut/1" && $0.message.contains("unknown reading \"noSuchReading\"") }, "\(lines)")
        #expect(error.problems.contains { $0.pointer == "/failures/feedback/generic" && $0.message.contains("\"kind\"") }, "\(lines)")
    }

    @Test func aMissingCauseAndAnInputOnNoStepAreProblems() throws {
        let result = try Self.parse { root in
            var failures = root["failures"]?.objectValue ?? JSONObject()
            var causes = failures["causes"]?.objectValue ?? JSONObject()
            causes["httpStatus"] = nil
            failures["causes"] = .object(causes)
            root["failures"] = .object(failures)
            var inputs = root["inputs"]?.arrayValue ?? []
            inputs.append(["field": "nickname", "rules": [["kind": "trim", "source": "made up"]]])
            root["inputs"] = .array(inputs)
        }
        guard case .failure(let error) = result else {
            Issue.record("a profile without a ruling for httpStatus must be refused")
            return
        }
        let lines = error.problems.map(\.description)
        #expect(error.problems.contains { $0.pointer == "/failures/causes" && $0.message.contains("\"httpStatus\" has no reading") }, "\(lines)")
        #expect(error.problems.contains { $0.pointer == "/inputs/3/field" && $0.message.contains("\"nickname\" is on no step") }, "\(lines)")
    }

    @Test func aProfileNamedThatIsNotThereListsTheOnesThatAre() {
        #expect(throws: ScenarioLoadError.self) { try ClientProfile.load("no-such-profile", scenariosDirectory: ScenarioLibrary.bundledDirectory) }
        do {
            _ = try ClientProfile.load("no-such-profile", scenariosDirectory: ScenarioLibrary.bundledDirectory)
        } catch {
            #expect(error.description.contains("ios-missing-pet"), "\(error)")
        }
    }

    @Test func aSentValueTakesItsCitationFromTheProfile() throws {
        let result = try Self.parse { root in
            var flow = root["flow"]?.objectValue ?? JSONObject()
            var report = flow["report"]?.objectValue ?? JSONObject()
            report["status"] = "FOUND"
            report["statusMeans"] = "a found-pet report"
            flow["report"] = .object(report)
            root["flow"] = .object(flow)
        }
        let profile = try result.get()
        let body = "{\"status\":\"MISSING\"}"
        let record = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/announcements", contract: "createAnnouncement", status: 201,
                                   authUser: nil, fault: nil, contentType: "application/json", bodyText: body, bodySize: body.utf8.count)
        let check = SentReportCheck(report: ReportData(fields: JSONObject(), photo: nil), inputs: [:], profile: profile)
        let status = try #require(check.check(record).first { $0.subject == "sent status of #1" })
        #expect(status.expected == "\"FOUND\" (a found-pet report)")
        #expect(status.why == profile.flow.report.value("status")?.citation)
    }
}
