import Foundation
import Testing
@testable import ContractKit

/// `diff` compares what the examples of two versions promise for the same request, and the bundled newer backend's
/// folder (contracts/versions/2026-01-12) shows each change of fb9f56a that a client can observe (petspot-api.md).
@Suite struct DocumentedAnswerDiffTests {
    @Test func aChangedErrorMessageOfADocumentedRequestIsBreaking() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("create-announcement.json") { contract in
            guard let responses = contract["responses"]?.arrayValue else { return }
            for (r, response) in responses.enumerated() {
                for (e, example) in (response["examples"]?.arrayValue ?? []).enumerated() where example["name"] == "email without domain" {
                    contract.set("/responses/\(r)/examples/\(e)/body/error/message", "email format is invalid")
                }
            }
        }
        let changes = ContractDiff.compare(old: try ContractSet.load(from: ContractSet.bundledDirectory), new: try copy.load())
        let change = try #require(changes.first { $0.kind == .documentedAnswerChanged })
        #expect(change.severity == .breaking)
        #expect(change.message.contains(#""email format is invalid" (was field email, "invalid email format")"#))
        #expect(changes.count == 1)
    }

    @Test func keyOrderDoesNotMakeTwoRequestsDifferent() {
        let a: JSONValue = ["email": "", "phone": "1"], b: JSONValue = ["phone": "1", "email": ""]
        #expect(ContractDiff.canonical(a).serialized() == ContractDiff.canonical(b).serialized())
    }

    @Test func theNewerBackendsFolderListsEachChangeAClientCanSee() throws {
        let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")
        let changes = ContractDiff.compare(old: try ContractSet.load(from: ContractSet.bundledDirectory), new: try ContractSet.load(from: newer))
        let text = changes.map(\.description).joined(separator: "\n")
        // A blank email or phone next to the other contact is now refused, and so is a 255-character email.
        #expect(text.contains(#"the request of example "empty email with a valid phone created" is now answered 400 INVALID_FORMAT field email"#))
        #expect(text.contains(#"the request of example "empty phone with a valid email created" is now answered 400 INVALID_FORMAT field phone"#))
        #expect(text.contains(#"the request of example "255-character email created" is now answered 400 INVALID_FORMAT"#))
        // A blank email without a phone is a format error before the contact rule.
        #expect(text.contains(#""empty email and no phone" is now answered 400 INVALID_FORMAT field email, "email format is invalid" (was 400 MISSING_CONTACT"#))
        // The new message.
        #expect(text.contains(#"changed to field email, "email format is invalid" (was field email, "invalid email format")"#))
        // The user endpoints are new, hence compatible.
        let added = changes.filter { $0.kind == .endpointAdded }.map(\.contract).sorted()
        #expect(added == ["loginUser", "registerUser"])
        #expect(changes.filter { $0.kind == .endpointAdded }.allSatisfy { $0.severity == .compatible })
        #expect(changes.contains { $0.severity == .breaking && $0.pointer == "/request/body/properties/phone/pattern" })
    }
}
