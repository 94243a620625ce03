import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// `POST /api/v1/announcements`: validate like the real backend, sanitize, store, answer 201 with the management password.
    ///
    /// `body` is what the JSON body parser left: nil when no JSON body was read (the real handler sees `undefined`).
    func create(_ endpoint: DeclaredEndpoint, body: JSONValue?) throws -> MockResponse {
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
        // The declared create (x-state): the unique field's answer and the secret's name come from it.
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
    func list(_ endpoint: DeclaredEndpoint, request: MockRequest) throws -> MockResponse {
        var values: [String: JSONValue] = [:]
        if let rules = rules.list {
            let sent = QueryRules.firstValues(in: request.query)
            switch rules.evaluate({ sent[$0] }, context: RuleContext(today: Timestamp.day(of: configuration.now()))) {
            case .success(let parsed): values = parsed
            case .failure(let refusal): throw refusal.thrown
            }
        }
        let query = ListQuery(values: values, rules: rules.list)
        // The declared wrapper (x-state/wrap) around the array; without one the array is the answer.
        let wrap = endpoint.state?.list?.wrap
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
