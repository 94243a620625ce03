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
        // The declared create (x-state): the unique field's answer and the secret's name come from it.
        let endpoint = declared(PetSpotRoute.createAnnouncement.contractID)
        let state = try endpoint.requireState()
        guard let (_, password, json) = store.create(microchipNumber: microchip, make: { id in
            var a = announcement
            a.id = id
            return a
        }) else {
            guard let clash = state.unique.first?.answer else { throw UndeclaredState(contractID: endpoint.contractID, what: "x-state/unique") }
            throw PetSpotError(clash)
        }
        let secret = state.secret.first ?? ""
        return MockResponse(status: .created, headers: Self.jsonHeaders, body: Self.withSecret(secret, password, in: json))
    }

    /// The stored JSON with the declared secret (`x-state/secret`) appended as the last key, as the real backend sends it.
    ///
    /// Spliced into the bytes the store already rendered: the object's closing brace is its last byte.
    static func withSecret(_ name: String, _ password: String, in json: ByteBuffer) -> ByteBuffer {
        guard json.readableBytes > 2 else { return json }
        var out = ByteBuffer()
        out.reserveCapacity(json.readableBytes + 40)
        var head = json.getSlice(at: json.readerIndex, length: json.readableBytes - 1) ?? json
        out.writeBuffer(&head)
        out.writeString(",")
        out.writeBytes(JSONValue.string(name).serializedBytes())
        out.writeString(":")
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
        // The declared wrapper (x-state/wrap) around the array; without one the array is the answer.
        let wrap = declared(PetSpotRoute.listAnnouncements.contractID).state?.list?.wrap
        var body = ByteBuffer()
        if let wrap {
            body.writeString("{")
            body.writeBytes(JSONValue.string(wrap).serializedBytes())
            body.writeString(":")
        }
        body.writeString("[")
        var first = true
        for record in store.listedRecords()
        where query.includes(latitude: record.latitude, longitude: record.longitude) {
            if !first { body.writeString(",") }
            first = false
            var json = record.json
            body.writeBuffer(&json)
        }
        body.writeString(wrap == nil ? "]" : "]}")
        return MockResponse(status: .ok, headers: Self.jsonHeaders, body: body)
    }

    /// `DELETE …/{id}` (delete): the declared token checks (`request.auth.x-errors`, the token from where `x-token` says),
    /// then the record named by `key` (`notFound`); 204 without a body.
    func delete(_ endpoint: DeclaredEndpoint, parameters: [String: String], request: MockRequest) throws -> MockResponse {
        let state = try endpoint.requireState()
        let auth = try endpoint.requireAuth()
        try auth.checkToken(in: request.headers, expected: expectedToken(auth), parameters: parameters)
        guard store.delete(id: state.key.flatMap { parameters[$0] } ?? "") else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw PetSpotError(notFound, parameters: parameters)
        }
        return MockResponse(status: .noContent)
    }

    /// The value a token scheme expects, from where its `x-token` says; nil: nothing can match.
    func expectedToken(_ auth: AuthDeclaration) -> String? {
        switch auth.token {
        case .adminTokenOption?: return configuration.adminToken
        case nil: return nil
        }
    }
}
