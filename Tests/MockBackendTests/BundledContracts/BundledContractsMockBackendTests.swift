import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing

@Suite struct BundledContractsMockBackendTests {
    typealias S = BundledContractsTestSupport

    @Test func theTwoStepSubmissionWorksEndToEndOverHTTP() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            #expect(mock.port > 0)
            #expect(mock.baseURL.absoluteString == "http://127.0.0.1:\(mock.port)")
            let created = try await http.postJSON("/api/v1/announcements", S.createBody())
            #expect(created.status == 201)
            #expect(created.contractViolation == nil)
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            let id = try #require(created.json?["id"]?.stringValue)
            let password = try #require(created.json?["managementPassword"]?.stringValue)
            let upload = try await http.upload(id: id, authorization: S.basic(id, password), bytes: S.png)
            #expect(upload.status == 201)
            #expect(upload.json == .object(JSONObject()))
            #expect(upload.contractViolation == nil)
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.status == 200)
            #expect(read.json?.objectValue?.keys == BundledContractsTestSupport.storedAnnouncementKeys)
            #expect(read.json?["photoUrl"] == .string("/images/\(id).png"))
            #expect(read.json?["managementPassword"] == nil)
            let image = try await http.get("/images/\(id).png")
            #expect(image.status == 200)
            #expect(image.header("Content-Type") == "image/png")
            #expect([UInt8](image.body) == S.png)
            #expect(image.contractViolation == nil)
            let list = try await http.get("/api/v1/announcements?lat=52.23&lng=21.01")
            #expect(list.json?["data"]?.arrayValue?.count == 1)
            #expect(list.contractViolation == nil)
            #expect(await mock.recordCount() == 1)
            let contracts = mock.journal.entries().map(\.contract)
            #expect(contracts == ["createAnnouncement", "uploadPhoto", "getAnnouncement", "getImage", "listAnnouncements"])
            #expect(mock.journal.entries()[1].authUser == id)
        }
    }
}
