import ContractKit
import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// What `serve` names after the contracts, shown with a made-up API (the renamed contracts): its admin state routes,
/// fault catalogue and data directory log, the fixture harvest and the renamed-secret drift.
@Suite struct ContractNamedServerTests {
    typealias S = BundledContractsTestSupport

    @Test func theServerNamesItsLogAdminRoutesAndFaultCatalogueAfterTheContracts() async throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let directory = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let contracts = try renamed.load()
        var options = ContractMock.Options(contracts: contracts, seed: 3, adminToken: "admin-secret", quiet: true, checkResponses: true)
        options.dataDirectory = directory
        options.idleTimeout = patientIdleTimeout
        let mock = try await ContractMock.start(options)
        do {
            let http = PetSpotHTTP(mock)
            let admin = ["X-SpotCheck-Admin-Token": "admin-secret"]
            let created = try await http.postJSON("/api/v1/parcels", RenamedContracts.createBody())
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let id = try #require(created.json?["id"]?.stringValue)
            let pin = try #require(created.json?["pin"]?.stringValue)
            let label = S.multipart(name: "photo", filename: "label.png", bytes: S.png)
            let uploaded = try await http.send("POST", "/api/v1/parcels/\(id)/photos",
                                               headers: ["Content-Type": "multipart/form-data; boundary=XyZBoundary42", "Authorization": S.basic(id, pin)],
                                               body: Data(label.readableBytesView))
            #expect(uploaded.status == 201, "\(String(decoding: uploaded.body, as: UTF8.self))")
            // The dashboard's fault catalogue offers the loaded contracts' ids.
            let catalogue = try await http.get("/__spotcheck/faults/catalogue", headers: admin)
            let ids = catalogue.json?["contracts"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(ids == contracts.contracts.map(\.id))
            #expect(ids.contains("registerParcel") && !ids.contains("createAnnouncement"))
            // The state routes are the collection's own: `state/parcels/...`; PetSpot's `state/announcements/...` is none.
            let photo = try await http.get("/__spotcheck/state/parcels/\(id)/photo", headers: admin)
            #expect(photo.status == 200)
            #expect(Array(photo.body) == S.png)
            let other = try await http.send("DELETE", "/__spotcheck/state/announcements/\(id)", headers: admin)
            #expect(other.status == 404)
            #expect(other.json?["error"]?["message"]?.stringValue?.contains("declared: parcels") == true, "\(String(decoding: other.body, as: UTF8.self))")
            #expect(try await http.send("DELETE", "/__spotcheck/state/parcels/\(id)", headers: admin).status == 204)
            #expect(try await http.send("DELETE", "/__spotcheck/state/parcels/\(id)", headers: admin).status == 404)
            try await mock.shutdown()
        } catch {
            try? await mock.shutdown()
            throw error
        }
        // The data directory's log is named after the collection.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["parcels.log", "photos", StoreDataDirectory.markerName].sorted())
    }

    @Test func theFixtureHarvestNamesTheContractsCollectionAndSecret() throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let contracts = try renamed.load()
        let id = "3f1c2b7e-8a4d-4c1e-9b2a-1d2e3f4a5b6c"
        var record = RenamedContracts.createBody().objectValue ?? JSONObject()
        record["id"] = .string(id.uppercased())
        record["labelUrl"] = .string("/labels/\(id).png")
        record["pin"] = "482913"
        let text = JSONValue.object(record).serialized()
        let entry = JournalEntry(time: Date(), method: "POST", path: "/api/v1/parcels", contract: "registerParcel", status: 201, authUser: nil,
                                 rule: nil, fault: nil, durationMs: 1, responseBody: CapturedBody(size: text.utf8.count, bytes: Array(text.utf8)))
        let fixtures = RecordFixtureHarvest.fixtures(from: [entry], contracts: contracts)
        let parcels = try #require(fixtures["parcels"]?.arrayValue)
        #expect(parcels.count == 1)
        #expect(parcels.first?["id"] == .string(id))
        #expect(parcels.first?["pin"] == "482913")
        #expect(parcels.first?["labelUrl"] == nil)
        #expect(fixtures["announcements"] == nil)
        // What it wrote loads into the made-up API's store.
        #expect(try RecordFixture.parse(fixtures, file: "harvest", collections: contracts.state.collections).count == 1)
    }

    @Test func theRenamedSecretDriftRenamesTheSecretTheCreateDeclares() async throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let contracts = try renamed.load()
        let backend = try ModelBackend(configuration: .init(contracts: contracts, seed: 7, checkResponses: false, now: { S.now }))
        let drifted = DriftResponder(wrapping: backend, drifts: [.renamedManagementPassword], contracts: contracts)
        let answer = await drifted.respond(to: MockRequest(method: .POST, uri: "/api/v1/parcels", headers: S.jsonHeaders(),
                                                           body: ByteBuffer(string: RenamedContracts.createBody().serialized())))
        #expect(answer.status == .created)
        let object = try #require(answer.json?.objectValue)
        #expect(object["pin"] == nil)
        #expect(object["password"]?.stringValue?.count == 6)
    }

    @Test func recordingsRedactTheSecretTheContractsDeclare() throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let folder = StoreDataDirectoryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try ExchangeRecorder(directory: folder, contracts: try renamed.load())
        var answer = RenamedContracts.createBody().objectValue ?? JSONObject()
        answer["id"] = "3f1c2b7e-8a4d-4c1e-9b2a-1d2e3f4a5b6c"
        answer["pin"] = "482913"
        let text = JSONValue.object(answer).serialized()
        recorder.record(JournalEntry(time: Date(), method: "POST", path: "/api/v1/parcels", contract: "registerParcel", status: 201, authUser: nil,
                                     rule: nil, fault: nil, durationMs: 1, responseHeaders: [HeaderField(name: "content-type", value: "application/json")],
                                     responseBody: CapturedBody(size: text.utf8.count, bytes: Array(text.utf8))))
        #expect(recorder.errors.isEmpty)
        let written = try JSONValue(parsing: Data(contentsOf: folder.appendingPathComponent("create-announcement.json")))
        let example = try #require(written["responses"]?.arrayValue?.first?["examples"]?.arrayValue?.first)
        #expect(example["body"]?["pin"] == .string(ExchangeRecorder.redactedPassword))
        #expect(!String(decoding: try Data(contentsOf: folder.appendingPathComponent("create-announcement.json")), as: UTF8.self).contains("482913"))
    }

    @Test func theListFiltersByTheFieldsTheContractsFilterNames() async throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let backend = try ModelBackend(configuration: .init(contracts: try renamed.load(), seed: 7, checkResponses: true, now: { S.now }))
        // Two parcels, one in Warsaw and one in Kraków, located by `north` and `east` (the list's `filter.fields`).
        var names: [String: String] = [:]
        for (name, north, east) in [("Warsaw", 52.2297, 21.0122), ("Krakow", 50.0614, 19.9366)] {
            var body = RenamedContracts.createBody().objectValue ?? JSONObject()
            body["petName"] = .string(name)
            body["north"] = .number(north)
            body["east"] = .number(east)
            let created = await backend.respond(to: MockRequest(method: .POST, uri: "/api/v1/parcels", headers: S.jsonHeaders(),
                                                                body: ByteBuffer(string: JSONValue.object(body).serialized())))
            #expect(created.status == .created)
            let id = try #require(created.json?["id"]?.stringValue)
            let pin = try #require(created.json?["pin"]?.stringValue)
            let uploaded = await backend.respond(to: MockRequest(method: .POST, uri: "/api/v1/parcels/\(id)/photos",
                headers: ["Content-Type": "multipart/form-data; boundary=XyZBoundary42", "Authorization": S.basic(id, pin)],
                body: S.multipart(bytes: S.png)))
            #expect(uploaded.status == .created)
            names[id] = name
        }
        func listed(_ query: String) async throws -> [String] {
            let response = await backend.respond(to: MockRequest(method: .GET, uri: "/api/v1/parcels?\(query)"))
            #expect(response.status == .ok, "\(query)")
            return try #require(response.json?["data"]?.arrayValue).compactMap { $0["id"]?.stringValue.flatMap { names[$0] } }.sorted()
        }
        #expect(try await listed("lat=52.2296&lng=21.0122") == ["Warsaw"])
        #expect(try await listed("lat=50.0614&lng=19.9367&range=1") == ["Krakow"])
        #expect(try await listed("lat=51&lng=20&range=300") == ["Krakow", "Warsaw"])
    }
}
