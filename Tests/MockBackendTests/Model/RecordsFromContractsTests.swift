import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// The store keeps what the contracts declare, each test on a copy of the contract folder: a field added is stored and
/// answered everywhere, a field removed is answered nowhere, and a collection declared only in contracts works end to
/// end, its data directory and the bounds included.
@Suite struct RecordsFromContractsTests {
    typealias S = BundledContractsTestSupport

    // MARK: - Contract edits

    /// Adds `collarColor` (`string`, `maxLength: 20`, no `x-errors`) to the create request and the stored schemas.
    static func addCollarColor(_ copy: EditableContracts, in folder: String = "") throws {
        try copy.edit(folder + "schemas/CreateAnnouncementRequest.json") { $0.set(["properties", "collarColor"], ["type": "string", "maxLength": 20]) }
        try copy.edit(folder + "schemas/Announcement.json") { $0.set(["properties", "collarColor"], ["type": ["string", "null"]]) }
        try copy.edit(folder + "schemas/AnnouncementWithPassword.json") {
            // The create answer keeps managementPassword last: collarColor goes in before it.
            var properties = $0["properties"]?.objectValue ?? JSONObject()
            let password = properties["managementPassword"]
            properties["managementPassword"] = nil
            properties["collarColor"] = ["$ref": "Announcement.json#/properties/collarColor"]
            properties["managementPassword"] = password
            $0.set(["properties"], .object(properties))
        }
    }

    /// A create body of the bundled contracts with `extra` members.
    static func body(_ extra: [(String, JSONValue)] = []) -> [(String, JSONValue?)] {
        extra.map { ($0.0, $0.1) }
    }

    static func backend(_ copy: URL, dataDirectory: StoreDataDirectory? = nil, limit: Int? = nil) throws -> ModelBackend {
        var configuration = ModelBackend.Configuration(contracts: try ContractSet.load(from: copy), seed: 7, adminToken: "admin",
                                                         checkResponses: true, now: { S.now }, storeLimit: limit)
        configuration.dataDirectory = dataDirectory
        return try ModelBackend(configuration: configuration)
    }

    // MARK: - A field added

    @Test func aFieldAddedToTheContractsIsStoredAndAnsweredByCreateGetAndList() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addCollarColor(copy)
        let backend = try Self.backend(copy.url)
        let created = await backend.respond(to: S.createRequest(S.createBody([("collarColor", "red")])))
        #expect(created.status == .created)
        #expect(created.contractViolation == nil)
        let object = try #require(created.json?.objectValue)
        #expect(object["collarColor"] == "red")
        // Stored in the declared order: after the 18 fields, before the secret, which comes last.
        #expect(object.keys.suffix(2) == ["collarColor", "managementPassword"])
        let id = try #require(object["id"]?.stringValue)
        let password = try #require(object["managementPassword"]?.stringValue)

        let read = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
        #expect(read.json?["collarColor"] == "red")
        #expect(read.contractViolation == nil)
        // Listed once it has a photo (the list's declared `where`).
        let uploaded = await backend.respond(to: S.uploadRequest(id: id, authorization: S.basic(id, password), body: S.multipart(bytes: S.jpeg)))
        #expect(uploaded.status == .created)
        let list = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements"))
        let listed = try #require(list.json?["data"]?.arrayValue?.first { $0["id"]?.stringValue == id })
        #expect(listed["collarColor"] == "red")
        // Not sent: stored as null, like every optional field.
        let plain = await backend.respond(to: S.createRequest(S.createBody([("microchipNumber", nil)])))
        #expect(plain.json?.objectValue?.keys.contains("collarColor") == true)
        #expect(plain.json?["collarColor"] == .null)
    }

    @Test func aRuleWithoutXErrorsIsAnsweredNamingTheRuleNotRequired() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addCollarColor(copy)
        let backend = try Self.backend(copy.url)
        let answer = await backend.respond(to: S.createRequest(S.createBody([("collarColor", .string(String(repeating: "r", count: 30)))])))
        #expect(answer.status == .badRequest)
        #expect(answer.errorMessage == "collarColor breaks maxLength 20")
        #expect(answer.errorField == "collarColor")
        // The status and code are the contract's first documented 400: a client still meets only documented codes.
        #expect(answer.errorCode == "MISSING_VALUE")
        #expect(answer.contractViolation == nil)
        #expect(answer.assumptions.first?.contains("no x-errors for maxLength") == true)
        // Lint warns about the property without any stated answer, and only about it.
        let notes = try ContractSet.load(from: copy.url).unstatedRules
        #expect(notes.map(\.pointer) == ["/properties/collarColor"])
        #expect(notes.first?.message.contains("no x-errors") == true)
        #expect(try S.loadedContracts().unstatedRules.isEmpty)
    }

    @Test func aFieldAddedIsKeptAcrossADataDirectoryRestart() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addCollarColor(copy)
        let directory = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try StoreDataDirectory.open(directory)
        let backend = try Self.backend(copy.url, dataDirectory: first)
        let created = await backend.respond(to: S.createRequest(S.createBody([("collarColor", "blue")])))
        let id = try #require(created.json?["id"]?.stringValue)
        first.close()

        let again = try Self.backend(copy.url, dataDirectory: try StoreDataDirectory.open(directory))
        let read = await again.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
        #expect(read.status == .ok)
        #expect(read.json?["collarColor"] == "blue")
        again.store.persistence?.close()
    }

    // MARK: - A field removed

    @Test func aFieldRemovedFromTheStoredSchemaIsNoLongerAnswered() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        for file in ["schemas/Announcement.json", "schemas/AnnouncementWithPassword.json"] {
            try copy.edit(file) { schema in
                var properties = schema["properties"]?.objectValue ?? JSONObject()
                properties["reward"] = nil
                schema.set(["properties"], .object(properties))
                schema.set(["required"], .array((schema["required"]?.arrayValue ?? []).filter { $0 != "reward" }))
            }
        }
        // The contracts' own examples answer without it too.
        for file in ["create-announcement.json", "get-announcement.json", "list-announcements.json"] {
            try copy.edit(file) { contract in contract.set(["responses"], Self.removing("reward", from: contract["responses"] ?? .null)) }
        }
        let backend = try Self.backend(copy.url)
        let created = await backend.respond(to: S.createRequest(S.createBody([("reward", "100 PLN")])))
        #expect(created.status == .created)
        #expect(created.json?["reward"] == nil)
        #expect(created.contractViolation == nil)
        let id = try #require(created.json?["id"]?.stringValue)
        let read = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
        #expect(read.json?.objectValue?.keys == S.storedAnnouncementKeys.filter { $0 != "reward" })
    }

    /// `value` without any member named `key`, at any depth.
    static func removing(_ key: String, from value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.compactMap { $0.key == key ? nil : ($0.key, removing(key, from: $0.value)) }))
        case .array(let items): return .array(items.map { removing(key, from: $0) })
        default: return value
        }
    }

    // MARK: - A collection declared only in contracts

    /// `sightings`: create (`POST /api/v1/sightings`, a generated id and time), read by id and list, all written here.
    static func addSightings(_ copy: EditableContracts) throws {
        let envelope: JSONValue = ["$ref": "schemas/ErrorEnvelope.json"]
        let sighting: JSONValue = [
            "type": "object",
            "properties": [
                "id": ["type": "string", "format": "uuid"], "announcementId": ["type": "string"], "note": ["type": ["string", "null"]],
                "seenAt": ["type": "string", "format": "date-time"],
            ],
            "required": ["id", "announcementId", "note", "seenAt"], "additionalProperties": false,
        ]
        let example: JSONValue = ["id": "3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c", "announcementId": "a1", "note": "by the park",
                                  "seenAt": "2025-11-20T12:00:00.000Z"]
        let badRequest: JSONValue = [
            "status": 400, "code": "INVALID_FORMAT", "when": "The body breaks a rule.", "contentType": "application/json", "body": envelope,
            "examples": [["name": "no announcement", "request": ["body": ["note": "x"]],
                          "body": ["error": ["requestId": "abcdefghij", "code": "INVALID_FORMAT", "message": "announcementId is required", "field": "announcementId"]]]],
        ]
        let create: JSONValue = [
            "id": "createSighting", "summary": "Report a sighting.", "method": "POST", "path": "/api/v1/sightings",
            "request": [
                "contentType": "application/json",
                "body": [
                    "type": "object",
                    "properties": [
                        "announcementId": ["type": "string", "minLength": 1, "x-errors": [
                            "type": ["code": "INVALID_FORMAT", "message": "announcementId must be a string", "field": "{field}"],
                            "minLength": ["code": "INVALID_FORMAT", "message": "announcementId is required", "field": "{field}"]]],
                        "note": ["type": "string", "maxLength": 200, "x-empty-as-null": true, "x-errors": [
                            "type": ["code": "INVALID_FORMAT", "message": "note must be a string", "field": "{field}"],
                            "maxLength": ["code": "INVALID_FORMAT", "message": "note is too long", "field": "{field}"]]],
                    ],
                    "required": ["announcementId"],
                    "x-errors": [
                        "undefined": ["code": "INVALID_FORMAT", "message": "announcementId is required", "field": "announcementId"],
                        "type": ["code": "INVALID_FORMAT", "message": "announcementId is required", "field": "announcementId"],
                        "required": ["code": "INVALID_FORMAT", "message": "announcementId is required", "field": "{field}"],
                    ],
                ],
                "examples": [["name": "a sighting", "body": ["announcementId": "a1", "note": "by the park"]]],
            ],
            "x-state": ["collection": "sightings", "action": "create", "generate": ["id": "uuid-v4", "seenAt": "now-iso-ms"]],
            "responses": [
                ["status": 201, "when": "Stored.", "contentType": "application/json", "body": sighting,
                 "examples": [["name": "stored", "request": ["body": ["announcementId": "a1", "note": "by the park"]], "body": example]]],
                badRequest,
            ],
        ]
        let read: JSONValue = [
            "id": "getSighting", "summary": "Read one sighting.", "method": "GET", "path": "/api/v1/sightings/{id}",
            "pathParameters": ["id": ["schema": ["type": "string", "minLength": 1]]],
            "x-state": ["collection": "sightings", "action": "read", "key": "id",
                        "notFound": ["status": 404, "code": "NOT_FOUND", "message": "Resource not found"]],
            "responses": [
                ["status": 200, "when": "A sighting has this id.", "contentType": "application/json", "body": sighting,
                 "examples": [["name": "found", "body": example]]],
                ["status": 404, "code": "NOT_FOUND", "when": "No sighting has this id.", "contentType": "application/json", "body": envelope,
                 "examples": [["name": "missing", "body": ["error": ["requestId": "abcdefghij", "code": "NOT_FOUND", "message": "Resource not found"]]]]],
            ],
        ]
        let list: JSONValue = [
            "id": "listSightings", "summary": "Every sighting, oldest first.", "method": "GET", "path": "/api/v1/sightings",
            "x-state": ["collection": "sightings", "action": "list", "order": "creation", "wrap": "data"],
            "responses": [
                ["status": 200, "when": "Always.", "contentType": "application/json",
                 "body": ["type": "object", "properties": ["data": ["type": "array", "items": sighting]], "required": ["data"]],
                 "examples": [["name": "one", "body": ["data": [example]]]]],
            ],
        ]
        for (name, contract) in [("create-sighting.json", create), ("get-sighting.json", read), ("list-sightings.json", list)] {
            try contract.data(pretty: true).write(to: copy.url.appendingPathComponent(name))
        }
    }

    static func createSighting(_ backend: ModelBackend, note: String) async throws -> String {
        let body = JSONValue.object(["announcementId": "a1", "note": .string(note)])
        let response = await backend.respond(to: MockRequest(method: .POST, uri: "/api/v1/sightings", headers: ["Content-Type": "application/json"],
                                                             body: ByteBuffer(bytes: body.serializedBytes())))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        #expect(response.contractViolation == nil)
        return try #require(response.json?["id"]?.stringValue)
    }

    @Test func aCollectionDeclaredOnlyInContractsWorksEndToEnd() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addSightings(copy)
        let directory = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try StoreDataDirectory.open(directory)
        let backend = try Self.backend(copy.url, dataDirectory: first)
        let id = try await Self.createSighting(backend, note: "by the park")
        let created = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings/\(id)"))
        #expect(created.json?.objectValue?.keys == ["id", "announcementId", "note", "seenAt"])
        #expect(created.json?["note"] == "by the park")
        #expect(created.json?["seenAt"] == .string(Timestamp.string(from: S.now)))
        #expect(created.contractViolation == nil)
        // Its own rules answer.
        let refused = await backend.respond(to: MockRequest(method: .POST, uri: "/api/v1/sightings", headers: ["Content-Type": "application/json"],
                                                            body: ByteBuffer(string: #"{"note": "x"}"#)))
        #expect(refused.status == .badRequest)
        #expect(refused.errorMessage == "announcementId is required")
        let list = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings"))
        #expect(list.json?["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [id])
        // The announcements' list does not show it, and an announcement's id is no sighting.
        let announcements = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements"))
        #expect(announcements.json?["data"]?.arrayValue?.contains { $0["id"]?.stringValue == id } == false)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings/nope")).status == .notFound)
        try await backend.store.waitUntilDurable()
        first.close()

        let again = try Self.backend(copy.url, dataDirectory: try StoreDataDirectory.open(directory))
        let read = await again.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings/\(id)"))
        #expect(read.json == created.json)
        #expect(again.store.collectionCounts.map(\.name) == ["announcements", "sightings"])
        again.store.persistence?.close()
    }

    @Test func theCountBoundCountsEveryCollection() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addSightings(copy)
        let backend = try Self.backend(copy.url, limit: 2)
        let sighting = try await Self.createSighting(backend, note: "first")
        let announcement = try #require(await backend.respond(to: S.createRequest(S.createBody())).json?["id"]?.stringValue)
        _ = try await Self.createSighting(backend, note: "third")
        // Three created, two kept: the oldest, a sighting, went first.
        #expect(backend.store.evictedCount == 1)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings/\(sighting)")).status == .notFound)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(announcement)")).status == .ok)
    }

    @Test func theByteBoundCountsEveryCollection() async throws {
        let copy = try EditableContracts()
        defer { copy.remove() }
        try Self.addSightings(copy)
        var configuration = ModelBackend.Configuration(contracts: try ContractSet.load(from: copy.url), seed: 7, checkResponses: false, now: { S.now })
        configuration.storeMaxBytes = 3 * 1024
        let backend = try ModelBackend(configuration: configuration)
        let before = backend.store.bytes
        let first = try await Self.createSighting(backend, note: String(repeating: "n", count: 190))
        #expect(backend.store.bytes > before)
        for _ in 0..<20 { _ = try await Self.createSighting(backend, note: String(repeating: "n", count: 190)) }
        #expect(backend.store.bytes <= 3 * 1024 + 1024)
        #expect(backend.store.evictedCount > 0)
        #expect(await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/sightings/\(first)")).status == .notFound)
    }
}

/// Data directories written before collections were named still load, and every collection is kept, users too.
@Suite struct RecordsDataDirectoryTests {
    typealias S = BundledContractsTestSupport

    /// One record line exactly as store version 2 wrote it: no collection, `password` and `announcement`, a CRC-32C.
    static func versionTwoLine(_ json: String) -> [UInt8] {
        let bytes = Array(json.utf8)
        return bytes + [UInt8(ascii: "\t")] + CRC32C.hex(bytes) + [UInt8(ascii: "\n")]
    }

    @Test func aDirectoryWrittenByVersionTwoLoadsAndIsUpgraded() async throws {
        let directory = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data(#"{"format":"spotcheck-mock-store","version":2,"generation":0}"#.utf8 + [10])
            .write(to: directory.appendingPathComponent(StoreDataDirectory.markerName))
        let id = "5e3f7a1b-6c83-4a05-9fb6-a2b3c4d5e606"
        var announcement = StoreDataDirectoryTestSupport.announcement(id, name: "Old")
        let stored = String(decoding: announcement.json.serializedBytes(), as: UTF8.self)
        announcement.photoUrl = "/images/\(id).png"
        let withPhoto = String(decoding: announcement.json.serializedBytes(), as: UTF8.self)
        try Data(S.png).write(to: directory.appendingPathComponent("photos/\(id)-0a1b2c3d.png"))
        let log = Self.versionTwoLine(#"{"op":"put","id":"\#(id)","password":"654321","created":true,"announcement":\#(stored)}"#)
            + Self.versionTwoLine(#"{"op":"photo","id":"\#(id)","file":"\#(id)-0a1b2c3d.png","announcement":\#(withPhoto)}"#)
        try Data(log).write(to: directory.appendingPathComponent(StoreDataDirectory.legacyLogName))

        for _ in 0..<2 {
            let backend = try ModelBackend(configuration: {
                var c = ModelBackend.Configuration(contracts: try S.loadedContracts(), seed: 1, checkResponses: true, now: { S.now })
                c.dataDirectory = try StoreDataDirectory.open(directory)
                return c
            }())
            let read = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/announcements/\(id)"))
            #expect(read.json?["petName"] == "Old")
            #expect(read.json?["photoUrl"] == .string("/images/\(id).png"))
            #expect(backend.store.authenticate(id: id, password: "654321") == .ok)
            let image = await backend.respond(to: MockRequest(method: .GET, uri: "/images/\(id).png"))
            #expect(Array(image.body.readableBytesView) == S.png)
            backend.store.persistence?.close()
            // The start compaction rewrote it as version 3, naming the collection.
            let marker = try String(contentsOf: directory.appendingPathComponent(StoreDataDirectory.markerName), encoding: .utf8)
            #expect(marker.contains(#""version":3"#))
        }
    }

    @Test func usersAreKeptInTheDataDirectoryLikeEveryCollection() async throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12"))
        let register = try #require(contracts.contract(id: "registerUser")).pathTemplate
        let login = try #require(contracts.contract(id: "loginUser")).pathTemplate
        let directory = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func backend() throws -> ModelBackend {
            var c = ModelBackend.Configuration(contracts: contracts, seed: 1, checkResponses: true, now: { S.now })
            c.dataDirectory = try StoreDataDirectory.open(directory)
            return try ModelBackend(configuration: c)
        }
        func post(_ backend: ModelBackend, _ path: String, _ body: String) async -> MockResponse {
            await backend.respond(to: MockRequest(method: .POST, uri: path, headers: ["Content-Type": "application/json"], body: ByteBuffer(string: body)))
        }
        let first = try backend()
        let registered = await post(first, register, #"{"email": "Ola@Example.com", "password": "secret-123"}"#)
        #expect(registered.status == .created)
        let userId = try #require(registered.json?["userId"]?.stringValue)
        #expect(first.store.collectionCounts.first { $0.name == "users" }?.count == 1)
        try await first.store.waitUntilDurable()
        first.store.persistence?.close()

        let again = try backend()
        let loggedIn = await post(again, login, #"{"email": "ola@example.com", "password": "secret-123"}"#)
        #expect(loggedIn.status == .ok)
        #expect(loggedIn.json?["userId"] == .string(userId))
        #expect(await post(again, register, #"{"email": "OLA@example.com", "password": "another-1"}"#).status == .conflict)
        // The byte bound counts them: the store's bytes hold the user's record.
        #expect(again.store.bytes > 0)
        again.store.persistence?.close()
    }
}
