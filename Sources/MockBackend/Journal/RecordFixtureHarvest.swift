import ContractKit
import ContractModel
import Foundation

/// The records a stretch of traffic showed, as a fixtures file (`contracts/fixtures/pets.json`'s format), so a recorded
/// session can be replayed against a mock that holds the same data.
///
/// A record of a collection the contracts create is any object in a 2xx JSON answer carrying its key and the fields its
/// create requires; later sightings of a key update earlier ones, a create answer gives the secret, and a file answer
/// (an image) gives the file. The names all come from the contracts' `x-state`.
public enum RecordFixtureHarvest {
    /// Written when the traffic never showed a record's secret (a list or details read) or it was redacted: six digits,
    /// the form of `digits-6`.
    public static let placeholderPassword = "100000"

    /// What a collection's records look like in the traffic, from its declarations.
    struct Shape {
        let name: String
        let keyField: String
        /// The create generates the key as a UUID: only UUIDs count, lower-cased.
        let keyIsUUID: Bool
        /// The create's required body fields: what an object must carry to be a record.
        let required: [String]
        /// The field holding the file's address (derived again when the fixtures load).
        let fileField: String?
        /// The secret a fixture holds, and whether it is six digits.
        let secret: String?
        let secretIsDigits6: Bool

        static func all(_ contracts: ContractSet) -> [Shape] {
            contracts.state.collections.compactMap { collection in
                guard let create = collection.createContractID, let key = collection.keyField else { return nil }
                let generated = Dictionary(collection.generated.map { ($0.field, $0.generator) }, uniquingKeysWith: { first, _ in first })
                let secret = collection.secret.first
                return Shape(name: collection.name, keyField: key, keyIsUUID: generated[key] == .uuidV4,
                             required: contracts.requestRules[create]?.body?.properties.filter(\.required).map(\.name) ?? [],
                             fileField: collection.file?.field, secret: secret, secretIsDigits6: secret.map { generated[$0] == .digits6 } ?? false)
            }
        }

        /// The record's key in `object` when it is one of this collection's records.
        func key(of object: JSONObject) -> String? {
            guard let text = object[keyField]?.stringValue, !text.isEmpty, required.allSatisfy({ object[$0] != nil }) else { return nil }
            guard keyIsUUID else { return text }
            return UUID(uuidString: text) != nil ? text.lowercased() : nil
        }
    }

    /// The bundled contracts (`contracts/`), for callers that name none.
    static let bundled: ContractSet? = try? ContractSet.load(from: ContractSet.bundledDirectory)

    /// `fixtures(from:contracts:)` with the bundled contracts.
    public static func fixtures(from entries: [JournalEntry]) -> JSONValue {
        guard let bundled else { return .object(JSONObject()) }
        return fixtures(from: entries, contracts: bundled)
    }

    /// `{"<collection>": [...], ...}`, one member per collection `contracts` create records in, each in the order its keys
    /// were first seen.
    public static func fixtures(from entries: [JournalEntry], contracts: ContractSet) -> JSONValue {
        let shapes = Shape.all(contracts)
        var order: [[String]] = Array(repeating: [], count: shapes.count)
        var found: [[String: JSONObject]] = Array(repeating: [:], count: shapes.count)
        var photos: [String: [UInt8]] = [:]
        func take(_ value: JSONValue) {
            guard let object = value.objectValue,
                  let hit = shapes.indices.lazy.compactMap({ i in shapes[i].key(of: object).map { (index: i, id: $0) } }).first
            else { return }
            let (index, id) = (hit.index, hit.id)
            let shape = shapes[index]
            if found[index][id] == nil { order[index].append(id) }
            var kept = found[index][id] ?? JSONObject()
            // Every field the answer showed is kept (the record's fields are whatever the contracts declare); the
            // file's address is derived from the file again when the fixtures load.
            for (key, v) in object where key != shape.fileField { kept[key] = key == shape.keyField ? .string(id) : v }
            found[index][id] = kept
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
            // A list answer wraps its records in one member (its `wrap`).
            for member in json.objectValue ?? JSONObject() { for item in member.value.arrayValue ?? [] { take(item) } }
        }
        var document = JSONObject()
        for (index, shape) in shapes.enumerated() {
            document[shape.name] = .array(order[index].compactMap { id in
                guard var object = found[index][id] else { return nil }
                if let secret = shape.secret {
                    let value = object[secret]?.stringValue ?? ""
                    if value.isEmpty || shape.secretIsDigits6 && value.wholeMatch(of: /[1-9]\d{5}/) == nil {
                        object[secret] = .string(placeholderPassword)
                    }
                }
                if let photo = photos[id.lowercased()] { object["photo"] = .object(["base64": .string(Data(photo).base64EncodedString())]) }
                return .object(object)
            })
        }
        return .object(document)
    }
}
