import ContractKit
import Foundation
import NIOCore
import NIOHTTP1

extension PetSpotBackend {
    /// `POST /api/v1/announcements`: validate through the contract, sanitize, store, answer 201 with the management password.
    func create(_ request: MockRequest) async throws -> MockResponse {
        let body: JSONValue
        if Self.isJSON(request.headers) && request.body.readableBytes > 0 {
            do {
                body = try JSONValue(parsing: Data(request.body.readableBytesView))
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
            lastSeenDate: fields["lastSeenDate"]?.stringValue?.trimmingCharacters(in: .whitespaces) ?? "", email: text("email"),
            phone: text("phone"), photoUrl: nil, status: fields["status"]?.stringValue ?? "", reward: text("reward"),
            createdAt: stamp, updatedAt: stamp)
        guard let (stored, password) = await store.create(microchipNumber: microchip, make: { id in
            var a = announcement
            a.id = id
            return a
        }) else {
            throw PetSpotError(.conflict, "CONFLICT", "An announcement with this microchip number already exists", field: "microchipNumber")
        }
        guard case .object(var object) = stored.json else { throw PetSpotError(.internalServerError, "INTERNAL_SERVER_ERROR", "Internal server error") }
        // The create answer puts the password right after the id, as the contract lists it.
        var withPassword = JSONObject([("id", .string(stored.id)), ("managementPassword", .string(password))])
        object["id"] = nil
        for (key, value) in object { withPassword[key] = value }
        return Self.json(.created, .object(withPassword))
    }

    /// `GET /api/v1/announcements`: announcements with a photo, optionally within `range` km of `lat`/`lng`.
    func list(_ request: MockRequest) async throws -> MockResponse {
        let query: ListQuery
        switch ListQuery.parse(request.query) {
        case .success(let q): query = q
        case .failure(let e): throw e
        }
        let items = await store.listed().filter { query.includes(latitude: $0.locationLatitude, longitude: $0.locationLongitude) }
        return Self.json(.ok, ["data": .array(items.map(\.json))])
    }

    /// `DELETE /api/v1/announcements/:id` with `X-Admin-Token`: 204, or 401 without the right token, 404 for an unknown id.
    func delete(id: String, headers: HTTPHeaders) async throws -> MockResponse {
        guard let expected = configuration.adminToken, let given = headers.first(name: "X-Admin-Token"),
            BasicCredentials.constantTimeEquals(expected, given)
        else { throw PetSpotError.unauthenticated("Authentication required") }
        guard await store.delete(id: id) else { throw PetSpotError.notFound("Announcement not found") }
        return MockResponse(status: .noContent)
    }
}
