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
        if let problem = validator.firstError(in: body, today: Timestamp.day(of: now)) { throw problem }
        guard let fields = body?.objectValue else { throw PetSpotError(.badRequest, "MISSING_VALUE", "Required") }

        // The request's own values are stored, not the trimmed ones (the backend writes `data.x ?? null`). Optional text
        // is sanitized only when non-empty (`data.petName ? sanitize(data.petName) : undefined`), so `""` is stored as
        // null while text that sanitizes to nothing is stored as `""`; email and phone are stored as sent, `""` included.
        func sanitized(_ key: String) -> String? {
            guard let s = fields[key]?.stringValue, !s.isEmpty else { return nil }
            return HTMLSanitizer.strip(s, trim: false)
        }
        func asSent(_ key: String) -> String? { fields[key]?.stringValue }
        let microchip = asSent("microchipNumber")
        let stamp = Timestamp.string(from: now)
        let announcement = Announcement(
            id: "", petName: sanitized("petName"), species: sanitized("species") ?? "", breed: sanitized("breed"), sex: sanitized("sex") ?? "",
            age: fields["age"]?.numberValue, description: sanitized("description"), microchipNumber: microchip,
            locationLatitude: fields["locationLatitude"]?.numberValue ?? 0, locationLongitude: fields["locationLongitude"]?.numberValue ?? 0,
            lastSeenDate: fields["lastSeenDate"]?.stringValue ?? "", email: asSent("email"),
            phone: asSent("phone"), photoUrl: nil, status: fields["status"]?.stringValue ?? "", reward: sanitized("reward"),
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
        let query: ListQuery
        switch ListQuery.parse(request.query) {
        case .success(let q): query = q
        case .failure(let e): throw e
        }
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
