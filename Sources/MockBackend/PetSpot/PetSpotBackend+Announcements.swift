import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// `POST /api/v1/announcements`: validate through the contract, sanitize, store, answer 201 with the management password.
    func create(_ request: MockRequest) throws -> MockResponse {
        let body: JSONValue
        if Self.isJSON(request.headers) && request.body.readableBytes > 0 {
            do {
                body = try JSONValue(parsing: Array(request.body.readableBytesView))
            } catch {
                // The real backend answers 500 here; a good mock says what is wrong instead.
                throw PetSpotError.invalidFormat("The request body is not valid JSON (\(error.description))")
            }
        } else {
            body = .object(JSONObject())
        }
        let now = configuration.now()
        if let problem = validator.firstError(in: body, today: Timestamp.day(of: now)) { throw problem }
        guard let fields = body.objectValue else { throw PetSpotError.invalidFormat("The request body must be a JSON object") }

        func text(_ key: String) -> String? {
            guard let s = fields[key]?.stringValue else { return nil }
            let clean = HTMLSanitizer.strip(s)
            return clean.isEmpty ? nil : clean
        }
        let microchip = text("microchipNumber")
        let stamp = Timestamp.string(from: now)
        let announcement = Announcement(
            id: "", petName: text("petName"), species: text("species") ?? "", breed: text("breed"), sex: text("sex") ?? "",
            age: fields["age"]?.intValue, description: text("description"), microchipNumber: microchip,
            locationLatitude: fields["locationLatitude"]?.numberValue ?? 0, locationLongitude: fields["locationLongitude"]?.numberValue ?? 0,
            lastSeenDate: fields["lastSeenDate"]?.stringValue?.trimming(.whitespaces) ?? "", email: text("email"),
            phone: text("phone"), photoUrl: nil, status: fields["status"]?.stringValue ?? "", reward: text("reward"),
            createdAt: stamp, updatedAt: stamp)
        guard let (id, password, json) = store.create(microchipNumber: microchip, make: { id in
            var a = announcement
            a.id = id
            return a
        }) else {
            throw PetSpotError(.conflict, "CONFLICT", "An announcement with this microchip number already exists", field: "microchipNumber")
        }
        return MockResponse(status: .created, headers: Self.jsonHeaders, body: Self.withPassword(password, id: id, in: json))
    }

    /// The stored JSON with the password right after the id, as the contract lists it.
    ///
    /// Spliced into the bytes the store already rendered: the store writes `{"id":"<uuid>",` first, and a uuid needs no escaping.
    static func withPassword(_ password: String, id: String, in json: ByteBuffer) -> ByteBuffer {
        let head = #"{"id":""#.utf8.count + id.utf8.count + #"","#.utf8.count
        var out = ByteBuffer()
        out.reserveCapacity(json.readableBytes + 40)
        var rest = json
        guard var prefix = rest.readSlice(length: head) else { return json }
        out.writeBuffer(&prefix)
        out.writeString(#""managementPassword":"#)
        out.writeBytes(JSONValue.string(password).serializedBytes())
        out.writeString(",")
        out.writeBuffer(&rest)
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

    /// `DELETE /api/v1/announcements/:id` with `X-Admin-Token`: 204, or 401 without the right token, 404 for an unknown id.
    func delete(id: String, headers: HTTPHeaders) throws -> MockResponse {
        guard let expected = configuration.adminToken, let given = headers.first(name: "X-Admin-Token"),
            BasicCredentials.constantTimeEquals(expected, given)
        else { throw PetSpotError.unauthenticated("Authentication required") }
        guard store.delete(id: id) else { throw PetSpotError.notFound("Announcement not found") }
        return MockResponse(status: .noContent)
    }
}
