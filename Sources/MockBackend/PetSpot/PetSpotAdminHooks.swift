import ContractKit

/// The admin API's view of the PetSpot backend: reset to the start state, and the state panel's reads and changes.
struct PetSpotAdminHooks: AdminHooks {
    let store: AnnouncementStore

    /// Back to the start state (fixtures only, seed rewound); with a data directory, the reset is saved too.
    func reset() async {
        _ = await store.durably { store.reset() }
    }

    /// `{"count", "persistent", "dataDir", "announcements": [{"id", "managementPassword", "photo": {"type", "bytes", "url"}?, "announcement"}],
    /// "next"}`: one page, newest first; `count` is the total, `next` the cursor of the following page (null on the last).
    func state(_ page: StatePageRequest) async -> JSONValue? {
        let (count, newest, next) = store.page(page)
        let items: [JSONValue] = newest.map { stored in
            var o = JSONObject()
            o["id"] = .string(stored.id)
            o["managementPassword"] = .string(stored.managementPassword)
            if let type = stored.photoType {
                o["photo"] = .object(["type": .string(type), "bytes": .number(Double(stored.photoBytes)),
                                      "url": .string("\(AdminAPI.prefix)state/announcements/\(stored.id)/photo")])
            } else {
                o["photo"] = .null
            }
            o["announcement"] = stored.json
            return .object(o)
        }
        return .object([
            "count": .number(Double(count)), "persistent": .bool(store.persistence != nil),
            "dataDir": store.persistence.map { .string($0.url.path) } ?? .null, "announcements": .array(items),
            "next": next.map { .number(Double($0)) } ?? .null,
        ])
    }

    func deleteAnnouncement(id: String) async throws(AdminHookError) -> Bool {
        let (deleted, failure) = await store.durably { store.delete(id: id) }
        if let failure { throw AdminHookError(failure.description, badRequest: false) }
        return deleted
    }

    func photo(id: String) async -> (bytes: [UInt8], contentType: String)? {
        guard let photo = store.photo(id: id) else { return nil }
        return (Array(photo.bytes.readableBytesView), photo.type.contentType)
    }

    func loadFixtures(_ document: JSONValue) async throws(AdminHookError) -> Int {
        let fixtures: [PetSpotFixture]
        do {
            fixtures = try PetSpotFixture.parse(document, file: "POST \(AdminAPI.prefix)state/fixtures")
        } catch {
            throw AdminHookError(error.description, badRequest: true)
        }
        let (_, failure) = await store.durably { store.load(fixtures) }
        if let failure { throw AdminHookError(failure.description, badRequest: false) }
        return fixtures.count
    }
}
