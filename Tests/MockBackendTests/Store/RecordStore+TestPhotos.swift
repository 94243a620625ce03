import ContractKit
import NIOCore

@testable import ContractModel
@testable import MockBackend

/// An announcement with the bundled contracts' 18 stored fields, for building records in store tests (the store itself
/// knows no field: it renders what the contracts declare).
struct Announcement: Sendable, Equatable {
    var id: String
    var petName: String?
    var species: String
    var breed: String?
    var sex: String
    var age: Double?
    var description: String?
    var microchipNumber: String?
    var locationLatitude: Double
    var locationLongitude: Double
    var lastSeenDate: String
    var email: String?
    var phone: String?
    var photoUrl: String?
    var status: String
    var reward: String?
    var createdAt: String
    var updatedAt: String

    /// The fields as a JSON object, keyed as the bundled contracts name them.
    var json: JSONValue {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object(JSONObject([
            ("id", .string(id)), ("petName", text(petName)), ("species", .string(species)), ("breed", text(breed)),
            ("sex", .string(sex)), ("age", age.map(JSONValue.number) ?? .null), ("description", text(description)),
            ("microchipNumber", text(microchipNumber)), ("locationLatitude", .number(locationLatitude)),
            ("locationLongitude", .number(locationLongitude)), ("lastSeenDate", .string(lastSeenDate)),
            ("email", text(email)), ("phone", text(phone)), ("photoUrl", text(photoUrl)), ("status", .string(status)),
            ("reward", text(reward)), ("createdAt", .string(createdAt)), ("updatedAt", .string(updatedAt)),
        ]))
    }
}

extension RecordStore {
    /// A store of the bundled contracts' collections.
    convenience init(seed: UInt64?, fixtures: [RecordFixture] = [], limit: Int? = nil, maxBytes: Int? = nil,
                     persistence: StoreDataDirectory? = nil) {
        // The bundled contracts load in every test run; a failure there fails their own tests first.
        let contracts = (try? BundledContractsTestSupport.loadedContracts()) ?? ContractSet(directory: ContractSet.bundledDirectory, contracts: [], schemas: [:],
                                                                                   validator: SchemaValidator())
        self.init(contracts: contracts, seed: seed, fixtures: fixtures, limit: limit, maxBytes: maxBytes, persistence: persistence)
    }

    /// Creates an announcement from the test's own fields (its id and password drawn by the store, in the contracts'
    /// order); nil when its microchip number is taken.
    func create(microchipNumber: String?, make: (_ id: String) -> Announcement) -> (id: String, password: String, json: [UInt8])? {
        let layout = layouts[primary]
        let outcome = create(in: primary, draws: [.uuidV4, .digits6]) { drawn in
            let object = make(drawn[0]).json.objectValue ?? JSONObject()
            let values = (layout.fields ?? []).map { object[$0] ?? .null }
            return (drawn[0], Record(json: layout.render(values), secret: drawn[1], derived: layout.derived(values)))
        }
        switch outcome {
        case .stored(let key, let secret, let json): return (key, secret, json)
        case .taken: return nil
        }
    }

    /// The primary collection's listed records, in creation order.
    func listedRecords() -> [Record] { listedRecords(in: primary) }

    /// The primary collection's file served under `fileName`.
    func photo(fileName: String) -> Photo? { photo(in: primary, fileName: fileName) }

    /// Stores a photo the way the bundled upload contract declares it: `photoUrl` `/images/<id>.<ext>`, `updatedAt` moved.
    @discardableResult
    func setPhoto(id: String, bytes: [UInt8], type: ImageType, updatedAt: String) -> Bool {
        setPhoto(id: id, bytes: bytes, type: type, fields: [
            ("photoUrl", .string("/images/\(id).\(type.fileExtension)")), ("updatedAt", .string(updatedAt)),
        ])
    }
}

extension RecordFixture {
    /// The record's id (the bundled announcements' key).
    var announcementID: String { id(keyField: "id") }
}
