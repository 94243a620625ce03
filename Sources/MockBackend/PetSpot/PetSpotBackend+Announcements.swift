import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// `POST /api/v1/announcements`: validate like the real backend, sanitize, store, answer 201 with the management password.
    ///
    /// `body` is what the JSON body parser left: nil when no JSON body was read (the real handler sees `undefined`).
    func create(body: JSONValue?) throws -> MockResponse {
        let now = configuration.now()
        if let refusal = rules.create.firstRefusal(in: body, context: RuleContext(today: Timestamp.day(of: now))) { throw refusal.thrown }
        // The rules refuse anything but an object, so this is the body that passed them.
        let fields = body?.objectValue ?? JSONObject()

        // What is stored follows the contract (`x-stored`, `x-empty-as-null`, `x-sanitize`): the real backend keeps the
        // request's own values, not the trimmed ones, sanitizes text and stores optional `""` as null.
        let stored = rules.create.stored(from: fields, sanitizer: ModelRules.transform)
        func text(_ key: String) -> String? { stored[key]?.stringValue }
        let microchip = text("microchipNumber")
        let stamp = Timestamp.string(from: now)
        let announcement = Announcement(
            id: "", petName: text("petName"), species: text("species") ?? "", breed: text("breed"), sex: text("sex") ?? "",
            age: stored["age"]?.numberValue, description: text("description"), microchipNumber: microchip,
            locationLatitude: stored["locationLatitude"]?.numberValue ?? 0, locationLongitude: stored["locationLongitude"]?.numberValue ?? 0,
            lastSeenDate: text("lastSeenDate") ?? "", email: text("email"),
            phone: text("phone"), photoUrl: nil, status: text("status") ?? "", reward: text("reward"),
            createdAt: stamp, updatedAt: stamp)
        guard let (_, password, json) = store.create(microchipNumber: microchip, make: { id in
            var a = announcement
            a.id = id
            return a
        }) else {
            throw PetSpotError(.conflict, "CONFLICT", "An entity with this value already exists", field: "microchipNumber")
        }
        return MockResponse(status: .created, headers: Self.jsonHeaders, body: Self.withPassword(password, in: json))
    }

    /// The stored JSON with `managementPassword` appended as the last key, as the real backend sends it.
    ///
    /// Spliced into the bytes the store already rendered: the object's closing brace is its last byte.
    static func withPassword(_ password: String, in json: ByteBuffer) -> ByteBuffer {
        guard json.readableBytes > 2 else { return json }
        var out = ByteBuffer()
        out.reserveCapacity(json.readableBytes + 40)
        var head = json.getSlice(at: json.readerIndex, length: json.readableBytes - 1) ?? json
        out.writeBuffer(&head)
        out.writeString(#","managementPassword":"#)
        out.writeBytes(JSONValue.string(password).serializedBytes())
        out.writeString("}")
        return out
    }

    /// `GET /api/v1/announcements`: announcements with a photo, optionally within `range` km of `lat`/`lng`.
    func list(_ request: MockRequest) throws -> MockResponse {
        var values: [String: JSONValue] = [:]
        if let rules = rules.list {
            let sent = QueryRules.firstValues(in: request.query)
            switch rules.evaluate({ sent[$0] }, context: RuleContext(today: Timestamp.day(of: configuration.now()))) {
            case .success(let parsed): values = parsed
            case .failure(let refusal): throw refusal.thrown
            }
        }
        let query = ListQuery(values: values, rules: rules.list)
        var body = ByteBuffer(string: #"{"data":["#)
        var first = true
        for record in store.listedRecords()
        where query.includes(latitude: record.latitude, longitude: record.longitude) {
            if !first { body.writeString(",") }
            first = false
            var json = record.json
            body.writeBuffer(&json)
        }
        body.writeString("]}")
        return MockResponse(status: .ok, headers: Self.jsonHeaders, body: body)
    }

    /// `DELETE /api/v1/announcements/:id`: the whole `Authorization` value is the admin token; 204, 401, or 404.
    func delete(id: String, headers: HTTPHeaders) throws -> MockResponse {
        // The backend tests `!authHeader`: an empty value counts as missing.
        guard let given = headers.first(name: "Authorization"), !given.isEmpty else {
            throw PetSpotError.unauthenticated("Missing Authorization header")
        }
        guard let expected = configuration.adminToken, BasicCredentials.constantTimeEquals(expected, given) else {
            throw PetSpotError.unauthenticated("Invalid admin token")
        }
        guard store.delete(id: id) else { throw PetSpotError.notFound() }
        return MockResponse(status: .noContent)
    }
}
