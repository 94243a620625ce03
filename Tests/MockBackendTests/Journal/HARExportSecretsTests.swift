import ContractKit
import Foundation
import HTTPArchive
import Testing

@testable import ContractModel
@testable import MockBackend

/// Issue 37: every HAR SpotCheck writes keeps secrets out unless told to keep them, and says which in creator.comment.
@Suite struct HARExportSecretsTests {
    static let password = "482913"
    static let token = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiIxIn0.c2lnbmF0dXJl"

    static func entries() -> [JournalEntry] {
        let created = #"{"id":"a1","managementPassword":"\#(password)","accessToken":"\#(token)"}"#
        return [JournalEntry(sequence: 1, time: Date(timeIntervalSince1970: 1_795_618_800), method: "POST", path: "/api/v1/announcements",
                             contract: "createAnnouncement", status: 201, authUser: nil, rule: nil, fault: nil, durationMs: 3,
                             query: "token=\(token)&page=1",
                             requestHeaders: [HeaderField(name: "Authorization", value: "Basic YTE6NDgyOTEz"),
                                              HeaderField(name: "X-SpotCheck-Admin-Token", value: "admin-secret")],
                             responseHeaders: [HeaderField(name: "content-type", value: "application/json")],
                             responseBody: CapturedBody(size: created.utf8.count, bytes: Array(created.utf8)))]
    }

    @Test func theJournalExportRedactsWhatTheContractsDeclareAndSaysSo() throws {
        // The newer backend's contracts declare users' passwords and access tokens as well.
        let secrets = SecretNames(contracts: try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")))
        #expect(secrets.bodyFields.isSuperset(of: ["managementPassword", "password", "accessToken"]), "\(secrets.bodyFields)")
        let text = JournalHARExport.text(Self.entries(), filter: JournalHARFilter(), origin: "http://127.0.0.1:3000", byteLimit: 1 << 20, secrets: secrets).text
        for secret in [Self.password, "YTE6NDgyOTEz", "admin-secret", Self.token] {
            #expect(!text.contains(secret), "\(secret) is in the export")
        }
        let creator = try JSONValue(parsing: Data(text.utf8))["log"]?["creator"]?["comment"]?.stringValue
        #expect(creator == HARCreator.redactedComment)
        let kept = JournalHARExport.text(Self.entries(), filter: JournalHARFilter(), origin: "http://127.0.0.1:3000", byteLimit: 1 << 20, secrets: nil).text
        #expect(kept.contains(Self.password) && kept.contains("admin-secret"))
        #expect(try JSONValue(parsing: Data(kept.utf8))["log"]?["creator"]?["comment"]?.stringValue == HARCreator.keptComment)
    }

    @Test func theHARRecorderRedactsAndRefusesASymlinkAtItsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("field.har")
        let recorder = try HARFileRecorder(file: file, origin: "http://x", secrets: SecretNames(bodyFields: ["managementPassword", "accessToken"]))
        Self.entries().forEach(recorder.record)
        recorder.close()
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(Self.password) && !text.contains("admin-secret") && !text.contains(Self.token))

        let victim = folder.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let link = folder.appendingPathComponent("planted.har")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        #expect(throws: SafeFileWrite.Failure.self) { try HARFileRecorder(file: link, origin: "http://x") }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
    }
}
