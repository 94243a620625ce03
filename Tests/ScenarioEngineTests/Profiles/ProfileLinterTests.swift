import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// `lint --profile`: a rule the contracts make impossible and two rules of a profile that conflict are found, and the
/// bundled profile has neither.
@Suite struct ProfileLinterTests {
    @Test func theBundledProfileIsClean() throws {
        let problems = ProfileLinter.lint(.bundledDefault, contracts: try EngineTestSupport.contracts())
        #expect(problems.isEmpty, "\(problems.map(\.description))")
    }

    @Test func aStatusTheSchemaRefusesAndAFieldTheCreateRefusesAreImpossible() throws {
        let profile = try ClientProfileTests.parse { root in
            var flow = root["flow"]?.objectValue ?? JSONObject()
            var steps = flow["steps"]?.arrayValue ?? []
            steps.append(["id": "extra", "fields": ["nickname"], "source": "made up"])
            flow["steps"] = .array(steps)
            var report = flow["report"]?.objectValue ?? JSONObject()
            report["status"] = "LOST"
            var values = report["values"]?.arrayValue ?? []
            values.append(["field": "nickname", "check": "enteredWhenSent", "citation": "made up"])
            report["values"] = .array(values)
            flow["report"] = .object(report)
            root["flow"] = .object(flow)
        }.get()
        let problems = ProfileLinter.lint(profile, contracts: try EngineTestSupport.contracts())
        let lines = problems.map(\.description)
        #expect(problems.count == 2, "\(lines)")
        #expect(problems.contains { $0.pointer == "/flow/report/status" && $0.message.contains("\"LOST\"") && $0.message.contains("\"MISSING\", \"FOUND\"") }, "\(lines)")
        #expect(problems.contains { $0.pointer == "/flow/report/values/14/field" && $0.message.contains("\"nickname\"") && $0.message.contains("refuses") }, "\(lines)")
    }

    @Test func everyShippedLibraryUsesOnlyItsProfilesFields() throws {
        for profile in [ClientProfile.bundledDefault, try WebMissingPetProfileTests.profile()] {
            let library = try ScenarioLibrary.load(from: profile.libraryDirectory)
            let problems = library.scenarios.flatMap { ProfileLinter.problems(in: $0, profile: profile) }
            #expect(problems.isEmpty, "\(profile.name): \(problems.map(\.description))")
        }
    }

    @Test func aScenarioTypingIntoAFieldOfAnotherFlowIsAProblem() throws {
        let scenario = try EngineTestSupport.parse(#"""
            {"name": "reward", "report": "default",
             "steps": [{"action": "editField", "field": "reward", "value": "50 PLN", "expect": {"outcome": "edited", "inputs": {"reward": "50 PLN"}}}]}
            """#)
        // The found flow has no reward (069 FR-004, FR-005; KAN-34 align FR-010, FR-011).
        let problems = ProfileLinter.problems(in: scenario, profile: try FoundPetProfileTests.profile())
        #expect(problems.map(\.pointer) == ["/steps/0/field", "/steps/0/expect/inputs/reward"], "\(problems.map(\.description))")
        #expect(problems.first?.message.contains("reportFound flow of the profile ios-found-pet") == true)
        #expect(ProfileLinter.problems(in: scenario, profile: .bundledDefault).isEmpty)
    }

    @Test func aVerbatimFieldThatIsTrimmedAndALimitBelowTheDigitsConflict() throws {
        let profile = try ClientProfileTests.parse { root in
            var inputs = root["inputs"]?.arrayValue ?? []
            // The reward (index 2) trimmed as well as verbatim; the phone (index 0) limited below its 7 digits.
            if case .object(var reward) = inputs[2], var rules = reward["rules"]?.arrayValue {
                rules.append(["kind": "trim", "source": "made up trim"])
                reward["rules"] = .array(rules)
                inputs[2] = .object(reward)
            }
            if case .object(var phone) = inputs[0], var rules = phone["rules"]?.arrayValue {
                rules.append(["kind": "maxLength", "max": 5, "source": "made up limit"])
                phone["rules"] = .array(rules)
                inputs[0] = .object(phone)
            }
            root["inputs"] = .array(inputs)
        }.get()
        let problems = ProfileLinter.lint(profile, contracts: nil)
        let lines = problems.map(\.description)
        #expect(problems.count == 2, "\(lines)")
        #expect(problems.contains { $0.pointer == "/inputs/2/rules/0" && $0.message.contains("verbatim") && $0.message.contains("made up trim") }, "\(lines)")
        #expect(problems.contains { $0.pointer == "/inputs/0/rules/3/max" && $0.message.contains("at least 7 digits") }, "\(lines)")
    }
}
