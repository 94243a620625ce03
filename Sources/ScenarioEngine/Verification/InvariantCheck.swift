import ContractKit
import ContractModel
import MockBackend
import Foundation

/// The cross-request invariants no single schema states, and capture of the state later checks need.
enum InvariantCheck {
    /// Mismatches of the invariants that apply to `check`'s answer; captures the created announcement into `state`.
    static func mismatches(_ check: VerificationCheck, _ answer: HTTPAnswer, _ state: inout VerificationState) -> [Mismatch] {
        guard answer.status == check.response.status, (200..<300).contains(answer.status),
            let body = try? JSONValue(parsing: answer.body)
        else { return [] }
        var found: [Mismatch] = []
        let isCreate = check.recipe.method == "POST" && check.recipe.pathTemplate.hasSuffix("announcements")
        if isCreate {
            let id = body["id"]?.stringValue
            let password = body["managementPassword"]?.stringValue
            if id.flatMap(UUID.init(uuidString:)) == nil {
                found.append(Mismatch("invariant: id is a UUID", expected: "a UUID", actual: ViolationText.describe(body["id"])))
            }
            if password.map({ $0.count == 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) != true {
                found.append(Mismatch("invariant: managementPassword is 6 digits", expected: "a string of 6 digits",
                                      actual: ViolationText.describe(body["managementPassword"])))
            }
            if body["photoUrl"] != .null {
                found.append(Mismatch("invariant: photoUrl is null at creation", expected: "null", actual: ViolationText.describe(body["photoUrl"])))
            }
            if let id { state.createdIDs.append(id) }
            // The first created announcement is the one the rest of the plan uses.
            if state.id == nil, let id {
                state.id = id
                state.managementPassword = password
                state.latitude = body["locationLatitude"]?.numberValue
                state.longitude = body["locationLongitude"]?.numberValue
            }
        } else if check.recipe.method == "POST", let id = body["id"]?.stringValue {
            // Any other create: its id fills the `{id}` of the operations after it.
            state.createdIDs.append(id)
            if state.id == nil { state.id = id }
        } else if check.recipe.method == "GET", let object = body.objectValue, object["id"] != nil {
            if object["managementPassword"] != nil {
                found.append(Mismatch("invariant: reads never expose managementPassword", expected: "no managementPassword key",
                                      actual: "managementPassword is present"))
            }
            let expectsPhoto = check.response.examples.first { $0.name == check.exampleName }?.body?["photoUrl"].map { !$0.isNull } ?? false
            if expectsPhoto, object["id"]?.stringValue == state.id {
                let url = object["photoUrl"]?.stringValue ?? ""
                if url.hasPrefix("/images/") {
                    state.photoFile = String(url.dropFirst("/images/".count))
                } else {
                    found.append(Mismatch("invariant: photoUrl after upload", expected: "/images/<id>.<ext>",
                                          actual: ViolationText.describe(object["photoUrl"])))
                }
            }
        } else if check.recipe.method == "GET", let list = body["data"]?.arrayValue, let id = state.id {
            let expectsItems = check.response.examples.first { $0.name == check.exampleName }?.body?["data"]?.arrayValue?.isEmpty == false
            if expectsItems && check.recipe.query.isEmpty && !list.contains(where: { $0["id"]?.stringValue == id }) {
                found.append(Mismatch("invariant: the list shows the announcement with a photo", expected: "an item with id \(id)",
                                      actual: "\(list.count) items without it"))
            }
        }
        return found
    }
}
