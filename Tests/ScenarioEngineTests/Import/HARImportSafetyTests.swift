import ContractKit
import Foundation
import HTTPArchive
import ContractModel
import MockBackend
import Testing

@testable import ScenarioEngine

/// Issue 37's import findings: validated before redacted, undeclared query parameters left out, one transaction.
@Suite struct HARImportSafetyTests {
    typealias Project = HARImportTests.Project

    private static func import_(_ text: String, file: String, into project: Project, keepSecrets: Bool = false) throws -> (HARImport.Plan, HARImport.Outcome) {
        let contracts = try project.load()
        let plan = try HARImport.plan(try HARReader.read(Data(text.utf8), file: file), file: file, contracts: contracts, keepSecrets: keepSecrets)
        return (plan, try HARImport.write(plan, contracts: contracts, scenarios: project.scenarios))
    }

    /// A multipart body with a 1×1 PNG under `photo`, as base64 for the HAR's `postData`.
    static var multipartPhoto: String {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
                            0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        var body = Data("--Boundary-7F2A\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        body += Data(png)
        body += Data("\r\n--Boundary-7F2A--\r\n".utf8)
        return body.base64EncodedString()
    }

    /// The Proxyman session with the photo sent and the upload answered 201: valid Basic credentials on a successful upload.
    static var successfulUploadHAR: String {
        HARImportTests.proxymanHAR
            .replacingOccurrences(of: #""params": [{"name": "photo", "fileName": "photo.jpg", "contentType": "image/jpeg"}]"#,
                                  with: #""text": "\#(multipartPhoto)", "_encoding": "base64""#)
            .replacingOccurrences(of: #""status": 503, "statusText": "Service Unavailable""#, with: #""status": 201, "statusText": "Created""#)
            .replacingOccurrences(of: #""{\"error\":{\"code\":\"SERVICE_UNAVAILABLE\",\"message\":\"Try later\"}}""#, with: #""{}""#)
            .replacingOccurrences(of: #""content": {"size": 71,"#, with: #""content": {"size": 2,"#)
            .replacingOccurrences(of: #""bodySize": 71}"#, with: #""bodySize": 2}"#)
    }

    @Test func aRecordedUploadWithValidBasicCredentialsMergesWithItsSecretRedacted() throws {
        let project = try Project()
        defer { project.remove() }
        let (plan, outcome) = try Self.import_(Self.successfulUploadHAR, file: "upload.har", into: project)
        #expect(plan.broken.isEmpty, "\(plan.broken)")
        #expect(outcome.merged.contains { $0.hasPrefix("uploadPhoto 201") }, "\(outcome.merged) \(outcome.skipped)")
        let auth = Data("\(HARImportTests.createdID):\(HARImportTests.password)".utf8).base64EncodedString()
        let written = try project.snapshot().values.map { String(decoding: $0, as: UTF8.self) }
        #expect(!written.contains { $0.contains(HARImportTests.password) || $0.contains(auth) })
        #expect(outcome.written.contains { $0.lastPathComponent == "upload-photo.json" }, "the merged contract file is reported as written")
    }

    /// Issue 44: the Proxyman session with the photo sent and the upload answered 503 with a JSON error body: the answer
    /// no contract describes stays the scenario's fault, and the rest of the session is imported.
    @Test func aCapturedUploadAnswered503IsKeptAsAFaultAndTheRestImports() throws {
        let project = try Project()
        defer { project.remove() }
        let har = HARImportTests.proxymanHAR
            .replacingOccurrences(of: #""params": [{"name": "photo", "fileName": "photo.jpg", "contentType": "image/jpeg"}]"#,
                                  with: #""text": "\#(Self.multipartPhoto)", "_encoding": "base64""#)
        let (plan, outcome) = try Self.import_(har, file: "outage.har", into: project)
        #expect(plan.broken.isEmpty, "\(plan.broken)")
        #expect(outcome.merged.contains { $0.hasPrefix("createAnnouncement 201") }, "\(outcome.merged)")
        #expect(!outcome.merged.contains { $0.hasPrefix("uploadPhoto 503") }, "a fault is not a contract example: \(outcome.merged)")
        let scenario = try JSONValue(parsing: Data(contentsOf: project.scenarios.appendingPathComponent("har-outage.json")))
        #expect(scenario["faults"]?.arrayValue?.first?["fault"]?["status"] == 503)
        #expect(try ContractSet.load(from: project.contracts).contract(id: "uploadPhoto") != nil, "the merged folder still loads")
    }

    /// Issue 44: a valid Basic upload, imported without `--keep-secrets`, breaks no contract anywhere in what the import
    /// reports or writes: the check sees the header as sent, never the redacted one.
    @Test func aValidBasicUploadIsNeverReportedAsBreakingItsContractWhenSecretsAreRedacted() throws {
        let project = try Project()
        defer { project.remove() }
        let (plan, outcome) = try Self.import_(Self.successfulUploadHAR, file: "valid-basic.har", into: project)
        #expect(plan.broken.isEmpty, "\(plan.broken)")
        #expect(!outcome.skipped.contains { $0.contains("decode") }, "\(outcome.skipped)")
        let written = try project.snapshot().values.map { String(decoding: $0, as: UTF8.self) }
        #expect(!written.contains { $0.contains("do not decode") }, "a recorded violation names the redacted header")
        let contracts = try project.load()
        #expect(ScenarioLinter.lint(directory: project.scenarios, contracts: contracts).allSatisfy { !$0.message.contains("decode") })
    }

    @Test func anUndeclaredQueryParameterIsReportedAndLeftOutAndTheImportGoesOn() throws {
        let project = try Project()
        defer { project.remove() }
        let har = HARImportTests.proxymanHAR.replacingOccurrences(
            of: #""url": "https://api.petspot.example/api/v1/announcements", "#,
            with: #""url": "https://api.petspot.example/api/v1/announcements?token=s3cr3t-value&utm=x", "#)
        let (plan, outcome) = try Self.import_(har, file: "query.har", into: project)
        #expect(plan.undeclaredQuery.count == 2)
        #expect(plan.undeclaredQuery.first?.hasSuffix(": token") == true)
        #expect(outcome.merged.contains { $0.hasPrefix("createAnnouncement 201") })
        #expect(!(try project.snapshot()).values.contains { String(decoding: $0, as: UTF8.self).contains("s3cr3t-value") })
    }

    @Test func aDanglingSymlinkAtTheScenarioNameWritesNothingAndSaysSo() throws {
        let project = try Project()
        defer { project.remove() }
        try FileManager.default.createSymbolicLink(atPath: project.scenarios.appendingPathComponent("har-field.json").path,
                                                   withDestinationPath: "/nonexistent/target.json")
        let before = try project.snapshot()
        #expect(throws: HARImport.WriteError.self) { _ = try Self.import_(Self.successfulUploadHAR, file: "field.har", into: project) }
        #expect(try project.snapshot() == before, "the contracts were not merged either")
    }

    @Test func secretLookingQueryValuesAreRedactedWhereTheyAreKept() {
        let names = SecretNames(bodyFields: ["managementPassword"])
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiIxIn0.c2lnbmF0dXJl"
        let query = JournalEntry.redactingQuery("lat=50&api_key=k1&Token=t&auth=a&q=\(jwt)&managementPassword=123456&range=5", names)
        #expect(query == "lat=50&api_key=%3Credacted%3E&Token=%3Credacted%3E&auth=%3Credacted%3E&q=%3Credacted%3E&managementPassword=%3Credacted%3E&range=5")
    }
}
