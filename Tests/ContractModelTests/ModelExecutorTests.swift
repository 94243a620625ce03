import ContractKit
import Foundation
import Testing

@testable import ContractModel

/// The executor as a value: requests in, answers out, no socket anywhere.
@Suite struct ModelExecutorTests {
    /// Answers every upload with one fixed scan, so the file rules are tested apart from any multipart parser.
    struct FixedScanner: MultipartScanner {
        let outcome: MultipartScan
        func scan(field: String, in body: [UInt8], contentType: String?) -> MultipartScan { outcome }
    }

    static let contracts = Result { () throws(ContractLoadError) in try ContractSet.load(from: ContractSet.bundledDirectory) }
    static let now = Date(timeIntervalSince1970: 1_763_640_000)
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg==") ?? Data())

    func executor(scan: MultipartScan = .noFile) throws -> ModelExecutor {
        try ModelExecutor(configuration: .init(contracts: try Self.contracts.get(), seed: 7, checkResponses: true, now: { Self.now }),
                          multipart: FixedScanner(outcome: scan))
    }

    func create(_ executor: ModelExecutor) async throws -> (id: String, password: String) {
        let body = #"{"species":"DOG","sex":"MALE","locationLatitude":52.1,"locationLongitude":21.0,"email":"a@b.pl","lastSeenDate":"2025-11-18","status":"MISSING"}"#
        let answer = await executor.answer(ModelRequest(method: "POST", uri: "/api/v1/announcements",
                                                        headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        #expect(answer.status == .created)
        #expect(answer.contractViolations.isEmpty)
        let json = try JSONValue(parsing: answer.body)
        return (try #require(json["id"]?.stringValue), try #require(json["managementPassword"]?.stringValue))
    }

    @Test func aCreateIsStoredAndReadBackWithAnETagThatAnswers304() async throws {
        let executor = try executor()
        let (id, password) = try await create(executor)
        #expect(password.wholeMatch(of: /[0-9]{6}/) != nil)
        #expect(executor.store.count == 1)
        let read = await executor.answer(ModelRequest(method: "GET", uri: "/api/v1/announcements/\(id)"))
        #expect(read.status == .ok)
        #expect(try JSONValue(parsing: read.body)["id"]?.stringValue == id)
        let etag = try #require(read.headers.first(name: "ETag"))
        let again = await executor.answer(ModelRequest(method: "GET", uri: "/api/v1/announcements/\(id)", headers: ["If-None-Match": etag]))
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
    }

    @Test func aHeadAnswersTheGetsHeadersWithoutItsBody() async throws {
        let executor = try executor()
        let (id, _) = try await create(executor)
        let head = await executor.answer(ModelRequest(method: "HEAD", uri: "/api/v1/announcements/\(id)"))
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(head.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
    }

    @Test func anUnknownRouteGetsTheServiceFilesEnvelope() async throws {
        let answer = try await executor().answer(ModelRequest(method: "GET", uri: "/nowhere"))
        #expect(answer.status == .notFound)
        let envelope = try JSONValue(parsing: answer.body)
        #expect(envelope["error"]?["code"]?.stringValue == "NOT_FOUND")
        #expect(answer.headers.first(name: "request-id") == envelope["error"]?["requestId"]?.stringValue)
    }

    @Test func malformedJSONIsTheBodyParsersAnswerBeforeAnyRule() async throws {
        let answer = try await executor().answer(ModelRequest(method: "POST", uri: "/api/v1/announcements",
                                                          headers: ["Content-Type": "application/json"], body: Array("{".utf8)))
        #expect(answer.status == .badRequest)
        #expect(try JSONValue(parsing: answer.body)["error"]?["code"]?.stringValue == "INVALID_FORMAT")
    }

    @Test func anUploadStoresTheScannedFileAndPublishesItsAddress() async throws {
        let executor = try executor(scan: .file(Self.png))
        let (id, password) = try await create(executor)
        let basic = "Basic " + Data("\(id):\(password)".utf8).base64EncodedString()
        let upload = await executor.answer(ModelRequest(method: "POST", uri: "/api/v1/announcements/\(id)/photos",
                                                        headers: ["Content-Type": "multipart/form-data; boundary=b", "Authorization": basic],
                                                        body: Array("ignored by the fixed scanner".utf8)))
        #expect(upload.status == .created)
        let read = try JSONValue(parsing: await executor.answer(ModelRequest(method: "GET", uri: "/api/v1/announcements/\(id)")).body)
        let url = try #require(read["photoUrl"]?.stringValue)
        #expect(url.hasSuffix(".png"))
        let image = await executor.answer(ModelRequest(method: "GET", uri: url))
        #expect(image.status == .ok)
        #expect(image.body == Self.png)
    }

    @Test func anUploadWithTheWrongPasswordIsRefusedBeforeTheFileIsRead() async throws {
        let executor = try executor(scan: .malformed("never reached"))
        let (id, _) = try await create(executor)
        let basic = "Basic " + Data("\(id):000000".utf8).base64EncodedString()
        let upload = await executor.answer(ModelRequest(method: "POST", uri: "/api/v1/announcements/\(id)/photos",
                                                        headers: ["Content-Type": "multipart/form-data; boundary=b", "Authorization": basic]))
        #expect(upload.status.code == 403)
    }
}
