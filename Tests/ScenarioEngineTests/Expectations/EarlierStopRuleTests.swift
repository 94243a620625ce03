import ContractKit
import Foundation
import Testing

@testable import ScenarioEngine

/// An app that stops the user at an earlier step is judged by the profile's `flow.earlierStops`, not by Swift (issue 46).
@Suite struct EarlierStopRuleTests {
    static let complete = ReportData(fields: ["locationLatitude": 52.2, "locationLongitude": 21.0], photo: Photo(bytes: Data([0xFF, 0xD8, 0xFF]), mimeType: "image/jpeg"))

    static func without(_ fields: [String], photo: Bool = true) -> ReportData {
        var report = complete
        for field in fields { report.fields[field] = nil }
        if !photo { report.photo = nil }
        return report
    }

    @Test func theSeedsAllowAStopAtThePhotoStepOnlyWithoutAPhoto() {
        let flow = ClientProfile.bundledDefault.flow
        let stop = EarlierStop(step: 2, message: "Photo is mandatory")
        guard case .allowed(let reading) = EarlierStopRule.judge(stop, report: Self.without([], photo: false), flow: flow) else {
            Issue.record("a report without a photo may stop at the photo step")
            return
        }
        #expect(reading.contains("seed 000"))
        guard case .contradicted(let explanation) = EarlierStopRule.judge(stop, report: Self.complete, flow: flow) else {
            Issue.record("a complete report must not stop")
            return
        }
        #expect(explanation.contains("nothing the seeds require there is missing"), "\(explanation)")
    }

    @Test func aStopWithoutALocationIsContradictedWithTheSeedLine() {
        let verdict = EarlierStopRule.judge(EarlierStop(step: 3, message: "Location required"), report: Self.without(["locationLatitude", "locationLongitude"]),
                                            flow: ClientProfile.bundledDefault.flow)
        guard case .contradicted(let explanation) = verdict else {
            Issue.record("seed 004 lets a report without a location through")
            return
        }
        #expect(explanation.contains("FR-010"))
    }

    @Test func aStopAtTheWrongStepSaysWhichStepTheMissingFieldStops() {
        let verdict = EarlierStopRule.judge(EarlierStop(step: 3, message: "Add a photo"), report: Self.without([], photo: false), flow: ClientProfile.bundledDefault.flow)
        #expect(verdict == .contradicted(explanation: "the app stopped the user at step 3 with \"Add a photo\", but the report is complete for step 3 (only the photo is missing, which stops step 2)"))
    }

    @Test func theRulesNameStepsByIdSoAnotherFlowCountsItsOwn() throws {
        // A made-up flow whose photo is its first step: its own rule, at its own number.
        let rule = ClientProfile.EarlierStops.Rule(step: "picture", whenMissing: ["photo"], allowed: true, because: "the spec says so", source: "made up")
        let flow = ClientProfile.Flow(name: "f", steps: [ClientProfile.Step(id: "picture", fields: ["photo"], source: "s"), ClientProfile.Step(id: "rest", fields: ["email"], source: "s")],
                                      report: ClientProfile.bundledDefault.flow.report,
                                      earlierStops: ClientProfile.EarlierStops(rules: [rule], nothingMissing: "nothing"))
        #expect(EarlierStopRule.judge(EarlierStop(step: 1, message: "m"), report: Self.without([], photo: false), flow: flow)
            == .allowed(reading: "the app stopped the user at step 1 with \"m\" because the spec says so"))
        guard case .contradicted = EarlierStopRule.judge(EarlierStop(step: 2, message: "m"), report: Self.without([], photo: false), flow: flow) else {
            Issue.record("no rule allows a stop at the second step")
            return
        }
    }

    @Test func aProfileWithoutRulesContradictsEveryStop() {
        var flow = ClientProfile.bundledDefault.flow
        flow.earlierStops = .none
        guard case .contradicted(let explanation) = EarlierStopRule.judge(EarlierStop(step: 2, message: "m"), report: Self.without([], photo: false), flow: flow) else {
            Issue.record("without rules no stop is allowed")
            return
        }
        #expect(explanation.contains("nothing the profile requires there is missing"))
    }

    @Test func aRuleOnAStepOrFieldTheFlowLacksIsAProblemAtItsPointer() throws {
        let result = try ClientProfileTests.parse { root in
            var flow = root["flow"]?.objectValue ?? JSONObject()
            flow["earlierStops"] = ["rules": [["step": "payment", "whenMissing": ["card"], "allowed": true, "because": "b", "source": "s"]], "nothingMissing": "n"]
            root["flow"] = .object(flow)
        }
        guard case .failure(let error) = result else {
            Issue.record("a rule on no step must be refused")
            return
        }
        let lines = error.problems.map(\.description)
        #expect(error.problems.contains { $0.pointer == "/flow/earlierStops/rules/0/step" && $0.message.contains("\"payment\" is not in the flow") }, "\(lines)")
        #expect(error.problems.contains { $0.pointer == "/flow/earlierStops/rules/0/whenMissing/0" && $0.message.contains("\"card\" is on no step") }, "\(lines)")
    }
}
