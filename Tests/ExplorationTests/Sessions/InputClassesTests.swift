import ContractKit
import Foundation
import Testing

@testable import Exploration
@testable import ScenarioEngine

/// Issue 43: every class of every input rule, and every answer class, comes up in a default run; the classes follow
/// from the rule's kind; the model checks each where it matters.
@Suite struct InputClassesTests {
    @Test func aDefaultRunTriesEveryClassOfEveryRule() {
        for seed: UInt64 in [1, 7] {
            let generator = SessionGenerator(seed: seed)
            let tried = (0..<200).compactMap { generator.session($0).inputClass }
            let counts = Dictionary(tried.map { ($0, 1) }, uniquingKeysWith: +)
            let all = SessionGenerator.plannedClasses.map(\.name)
            #expect(Set(all).count == all.count, "class names are unique")
            for name in all { #expect((counts[name] ?? 0) >= 1, "seed \(seed): \(name) tried \(counts[name] ?? 0) times") }
        }
    }

    @Test func theClassesComeFromTheRuleKind() {
        let reward = InputRuleKind.text(trimmed: false, limit: 120, unit: .characters).classes(base: "$1")
        let byName = Dictionary(uniqueKeysWithValues: reward.map { ($0.name, $0.value) })
        #expect(byName["at the limit (120)"]?.count == 120)
        #expect(byName["one past the limit (121)"]?.count == 121)
        #expect(byName["at the limit in UTF-16 units"]?.utf16.count == 120)
        #expect(byName["within the limit in characters, past it in UTF-16"].map { $0.count <= 120 && $0.utf16.count > 120 } == true)
        #expect(byName["NBSP around"] == "\u{A0}$1\u{A0}")
        #expect(byName["whitespace only"].map { !$0.isEmpty && $0.allSatisfy(\.isWhitespace) } == true)
        let email = InputRuleKind.text(trimmed: true, limit: 254, unit: .characters).classes(base: "owner@example.com")
        let at = email.first { $0.name == "at the limit (254)" }?.value ?? ""
        #expect(at.count == 254 && SeedInputRules.email(at) == .valid)
        let phone = InputRuleKind.digitText(digits: 7...11).classes(base: "600 700 800")
        #expect(phone.first { $0.name == "shortest (7 digits)" }.map { SeedInputRules.phone($0.value) } == .valid)
        #expect(phone.first { $0.name == "one past (12 digits)" }.map { SeedInputRules.phone($0.value).isInvalid } == true)
        #expect(phone.first { $0.name == "full-width digits" }?.value.unicodeScalars.allSatisfy { (0xFF10...0xFF19).contains($0.value) } == true)
        let chip = InputRuleKind.digits(longest: 15).classes(base: "1")
        #expect(chip.first { $0.name == "leading zeros" }?.value.hasPrefix("000") == true)
        #expect(chip.first { $0.name == "one past (16 digits)" }?.value.count == 16)
        let latitude = InputRuleKind.coordinate(bound: 90).classes(base: "1").compactMap { Double($0.value) }
        #expect(latitude.contains(0) && latitude.contains { $0 == 0 && $0.sign == .minus } && latitude.contains(90) && latitude.contains(-90))
        #expect(InputRuleKind.choice(["MALE", "FEMALE"]).classes(base: "MALE").map(\.value) == ["MALE", "FEMALE"])
    }

    @Test func theListQueryListsByGreatCircleDistance() {
        let (lat, lng) = SeedModel.storedLocation
        #expect(ListQuery(lat: lat - 0.01, lng: lng, range: 3).lists(latitude: lat, longitude: lng))
        #expect(!ListQuery(lat: lat + 0.02, lng: lng, range: 1).lists(latitude: lat, longitude: lng))
        #expect(ListQuery(lat: lat + 0.02, lng: lng, range: nil).lists(latitude: lat, longitude: lng))
        #expect(!ListQuery(lat: 0, lng: lng, range: 5).lists(latitude: lat, longitude: lng))
    }

    @Test func theModelSendsTheQueryAndCountsWhatItLists() {
        var session = Session(actions: [.list, .submit, .list], faults: [])
        session.stored = [StoredPet(id: "3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c", status: "MISSING", sex: "MALE", lastSeenDate: "2025-03-05", phone: "600700800", hasPhoto: true)]
        session.listQuery = ListQuery(lat: 0, lng: 21.0122, range: 5)
        let steps = SeedModel(startInputs: ["phone": "600700800", "email": "a@b.co", "reward": ""]).steps(for: session)
        let lists = steps.filter { $0.document["action"]?.stringValue == "list" }
        #expect(lists.count == 2)
        for step in lists {
            #expect(step.document["query"]?["lat"]?.numberValue == 0)
            #expect(step.document["expect"]?["listed"]?.numberValue == 0)
        }
        session.listQuery = nil
        let unfiltered = SeedModel(startInputs: ["phone": "600700800", "email": "a@b.co", "reward": ""]).steps(for: session)
        #expect(unfiltered.filter { $0.document["action"]?.stringValue == "list" }.map { $0.document["expect"]?["listed"]?.numberValue } == [1, 2])
    }

    @Test func aWhitespaceOnlyRewardMustBeSentVerbatim() {
        let session = Session(actions: [.edit(field: "reward", value: " \t "), .submit], faults: [])
        let steps = SeedModel(startInputs: ["phone": "600700800", "email": "a@b.co", "reward": ""]).steps(for: session)
        let submit = steps.first { $0.document["action"]?.stringValue == "submit" }
        #expect(submit?.document["expect"]?["journal"]?["sentBody"]?["/reward"]?.stringValue == " \t ")
    }

    @Test func anUploadAnsweredWithAnotherBodyMustSucceedAndStoresThePhoto() {
        let fault = PlannedFault(contract: "uploadPhoto", call: 1, kind: .otherBody(""))
        #expect(!fault.fails && fault.reachesBackend)
        #expect(fault.fault == .malformed(status: 201, body: ""))
        let steps = SeedModel(startInputs: ["phone": "600700800", "email": "a@b.co", "reward": ""]).steps(for: Session(actions: [.submit], faults: [fault]))
        #expect(steps.first?.document["expect"]?["outcome"]?.stringValue == "success")
    }
}
