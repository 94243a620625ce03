import ContractKit
import ContractModel
import Foundation

/// The admin API's view of the backend: reset to the start state, and the state panel's reads and changes, for every
/// collection the contracts declare.
struct ModelAdminHooks: AdminHooks {
    let store: RecordStore
    /// The collections fixtures are checked against.
    let collections: [CollectionDeclaration]

    var collectionNames: [String] { collections.map(\.name) }

    /// Back to the start state (fixtures only, seed rewound); with a data directory, the reset is saved too.
    func reset() async {
        _ = await store.durably { store.reset() }
    }

    /// `{"collection", "collections": [{"name", "count"}], "count", "persistent", "dataDir",
    /// "records": [{"id", "secret": {"name", "value"}?, "photo": {"type", "bytes", "url"}?, "record"}], "next"}`: one page
    /// of `collection` (nil: the first declared), newest first; `count` is its total, `next` the cursor of the following
    /// page (null on the last).
    func state(_ page: StatePageRequest, collection: String?) async -> JSONValue? {
        let counts = store.collectionCounts
        let name = collection ?? counts.first?.name ?? ""
        let (count, newest, next) = store.page(page, collection: name)
        let items: [JSONValue] = newest.map { stored in
            var o = JSONObject()
            o["id"] = .string(stored.id)
            o["secret"] = stored.secret.map { .object(["name": .string($0.name), "value": .string($0.value)]) } ?? .null
            if let type = stored.photoType {
                o["photo"] = .object(["type": .string(type), "bytes": .number(Double(stored.photoBytes)),
                                      "url": .string("\(AdminAPI.prefix)state/records/\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)/\(stored.id)/photo")])
            } else {
                o["photo"] = .null
            }
            o["record"] = stored.json
            return .object(o)
        }
        return .object([
            "collection": .string(name),
            "collections": .array(counts.map { .object(["name": .string($0.name), "count": .number(Double($0.count))]) }),
            "count": .number(Double(count)), "persistent": .bool(store.persistence != nil),
            "dataDir": store.persistence.map { .string($0.url.path) } ?? .null, "records": .array(items),
            "next": next.map { .number(Double($0)) } ?? .null,
        ])
    }

    func deleteRecord(collection: String?, id: String) async throws(AdminHookError) -> Bool {
        let (deleted, failure) = await store.durably { store.delete(collection: collection, id: id) }
        if let failure { throw AdminHookError(failure.description, badRequest: false) }
        return deleted
    }

    func photo(collection: String?, id: String) async -> (bytes: [UInt8], contentType: String)? {
        guard let photo = store.photo(collection: collection, id: id) else { return nil }
        return (Array(photo.bytes), photo.type.contentType)
    }

    func loadFixtures(_ document: JSONValue) async throws(AdminHookError) -> Int {
        let fixtures: [RecordFixture]
        do {
            fixtures = try RecordFixture.parse(document, file: "POST \(AdminAPI.prefix)state/fixtures", collections: collections)
        } catch {
            throw AdminHookError(error.description, badRequest: true)
        }
        let (_, failure) = await store.durably { store.load(fixtures) }
        if let failure { throw AdminHookError(failure.description, badRequest: false) }
        return fixtures.count
    }
}
