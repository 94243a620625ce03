import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// `serve --data-dir`: what was acknowledged survives a restart, a torn last record is ignored, and foreign or
/// damaged directories are refused without being written to.
@Suite struct StoreDataDirectoryTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-store-\(UUID().uuidString)")
    }

    private func withPersistentMock<T>(_ directory: URL, _ body: (ContractMock) async throws -> T) async throws -> T {
        try await withPetSpotMock(seed: 3, dataDirectory: directory, body)
    }

    @Test func announcementsPasswordsAndPhotosSurviveARestart() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (kept, deleted, password) = try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            let http = PetSpotHTTP(mock)
            let (kept, password) = try await http.create()
            let auth = "Basic " + Data("x:\(password)".utf8).base64EncodedString()
            #expect(try await http.upload(id: kept, authorization: auth, bytes: BundledContractsTestSupport.png).status == 201)
            let (deleted, _) = try await http.create(BundledContractsTestSupport.createBody([("microchipNumber", "123456789012345")]))
            #expect(try await http.send("DELETE", "/api/v1/announcements/\(deleted)", headers: ["Authorization": "admin-secret"]).status == 204)
            return (kept, deleted, password)
        }
        try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            let http = PetSpotHTTP(mock)
            let answer = try await http.get("/api/v1/announcements/\(kept)")
            #expect(answer.status == 200)
            let photoURL = try #require(answer.json?["photoUrl"]?.stringValue)
            #expect(Array(try await http.get(photoURL).body) == BundledContractsTestSupport.png)
            #expect(try await http.get("/api/v1/announcements/\(deleted)").status == 404)
            // The management password came back too: it still authorises an upload, and a wrong one still does not.
            let auth = "Basic " + Data("x:\(password)".utf8).base64EncodedString()
            #expect(try await http.upload(id: kept, authorization: auth, bytes: BundledContractsTestSupport.jpeg).status == 201)
            let wrong = "Basic " + Data("x:000000".utf8).base64EncodedString()
            #expect(try await http.upload(id: kept, authorization: wrong, bytes: BundledContractsTestSupport.png).status == 403)
            // The deleted announcement's microchip number is free again.
            #expect(try await http.postJSON("/api/v1/announcements", BundledContractsTestSupport.createBody([("microchipNumber", "123456789012345")])).status == 201)
        }
        try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            let http = PetSpotHTTP(mock)
            let photoURL = try #require(try await http.get("/api/v1/announcements/\(kept)").json?["photoUrl"]?.stringValue)
            #expect(Array(try await http.get(photoURL).body) == BundledContractsTestSupport.jpeg)
            #expect(await mock.recordCount() == 2)
        }
    }

    @Test func resetThroughTheAdminAPIIsKeptToo() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            let http = PetSpotHTTP(mock)
            _ = try await http.create()
            #expect(try await http.send("POST", "/__spotcheck/reset", headers: ["X-SpotCheck-Admin-Token": "admin-secret"]).status == 204)
        }
        try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            #expect(await mock.recordCount() == 0)
        }
    }

    @Test func aTornLastRecordIsIgnoredAndCutOff() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try await withPersistentMock(directory) { mock in try await PetSpotHTTP(mock).create().id }
        // The log is named after the contracts' first collection.
        let log = directory.appendingPathComponent("announcements.log")
        let intact = try Data(contentsOf: log)
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"op":"put","id":"half-writ"#.utf8))
        try handle.close()
        try await withPersistentMock(directory) { (mock: ContractMock) async throws in
            #expect(try await PetSpotHTTP(mock).get("/api/v1/announcements/\(id)").status == 200)
            #expect(await mock.recordCount() == 1)
        }
        #expect(try Data(contentsOf: log) == intact)
    }

    @Test func aDamagedRecordBeforeGoodOnesIsAnErrorAndNothingIsWritten() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try StoreDataDirectory.open(directory)
        let log = directory.appendingPathComponent(StoreDataDirectory.logName)
        let damaged = Data("garbage\n{\"op\":\"reset\"}\n".utf8)
        try damaged.write(to: log)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("line 1 (byte offset 0) is damaged")
        }
        #expect(try Data(contentsOf: log) == damaged)
    }

    @Test func aRecordLackingAKeyNamesTheKey() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try StoreDataDirectory.open(directory)
        let log = directory.appendingPathComponent(StoreDataDirectory.logName)
        let lacking = StoreLogReader.line(["op": "put", "id": "a"], record: Array("{}".utf8))
        try Data(lacking + StoreLogReader.line(["op": "reset"], record: nil)).write(to: log)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("line 1") && "\(error)".contains("/secret (a string)") && !"\(error)".contains("/id")
        }
    }

    @Test func aForeignDirectoryIsRefusedAndLeftUntouched() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let precious = directory.appendingPathComponent("thesis.txt")
        try Data("do not touch".utf8).write(to: precious)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("is not a SpotCheck data directory")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thesis.txt"])

        let file = directory.appendingPathComponent("thesis.txt")
        #expect {
            _ = try StoreDataDirectory.open(file)
        } throws: { error in
            "\(error)".contains("is a file, not a directory")
        }
    }

    @Test func aMarkerOfAnotherFormatOrVersionIsRefused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try StoreDataDirectory.open(directory)
        let marker = directory.appendingPathComponent(StoreDataDirectory.markerName)
        try Data(#"{"format": "spotcheck-mock-store", "version": 99}"#.utf8).write(to: marker)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("this spotcheck reads versions 1 to 3")
        }
    }

    @Test func oneDirectoryServesOneProcessAtATime() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try StoreDataDirectory.open(directory)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("in use")
        }
        withExtendedLifetime(first) {}
    }
}
