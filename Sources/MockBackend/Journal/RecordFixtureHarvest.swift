import ContractKit
import ContractModel
import Foundation

/// The announcements a stretch of traffic showed, as a fixtures file (`contracts/fixtures/pets.json`'s format), so a
/// recorded session can be replayed against a mock that holds the same data.
///
/// An announcement is any object in a 2xx JSON answer carrying the fields a fixture needs; later sightings of an id
/// update earlier ones, a create answer gives the management password, and an image answer gives the photo.
public enum RecordFixtureHarvest {
    /// Written when the traffic never showed an announcement's password (a list or details read) or it was redacted.
    public static let placeholderPassword = "100000"

    /// `{"announcements": [...]}` in the order the ids were first seen.
    public static func fixtures(from entries: [JournalEntry]) -> JSONValue {
        var order: [String] = []
        var found: [String: JSONObject] = [:]
        var photos: [String: [UInt8]] = [:]
        func take(_ value: JSONValue) {
            guard let object = value.objectValue, let id = object["id"]?.stringValue?.lowercased(), UUID(uuidString: id) != nil,
                  ["species", "sex", "status", "lastSeenDate", "locationLatitude", "locationLongitude"].allSatisfy({ object[$0] != nil })
            else { return }
            if found[id] == nil { order.append(id) }
            var kept = found[id] ?? JSONObject()
            // Every field the answer showed is kept (the record's fields are whatever the contracts declare); the
            // photo's address is derived from the photo again when the fixtures load.
            for (key, v) in object where key != "photoUrl" { kept[key] = key == "id" ? .string(id) : v }
            if let password = object["managementPassword"]?.stringValue { kept["managementPassword"] = .string(password) }
            found[id] = kept
        }
        for entry in entries {
            guard let status = entry.status, (200..<300).contains(status), let body = entry.responseBody, !body.truncated else { continue }
            if entry.method == "GET", ImageType.detect(body.bytes) != nil {
                let stem = entry.path.split(separator: "/").last.map { $0.split(separator: ".").first.map(String.init) ?? "" } ?? ""
                photos[stem.lowercased()] = body.bytes
                continue
            }
            guard let json = try? JSONValue(parsing: body.bytes) else { continue }
            take(json)
            // A list answer wraps its announcements in one member (`data` in PetSpot's).
            for member in json.objectValue ?? JSONObject() { for item in member.value.arrayValue ?? [] { take(item) } }
        }
        let list: [JSONValue] = order.compactMap { id in
            guard var object = found[id] else { return nil }
            let password = object["managementPassword"]?.stringValue ?? ""
            if password.wholeMatch(of: /[1-9]\d{5}/) == nil { object["managementPassword"] = .string(placeholderPassword) }
            if let photo = photos[id] { object["photo"] = .object(["base64": .string(Data(photo).base64EncodedString())]) }
            return .object(object)
        }
        return .object(["announcements": .array(list)])
    }
}
