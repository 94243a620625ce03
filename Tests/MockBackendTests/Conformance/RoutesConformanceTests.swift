import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// petspot-api.md: routing, photo upload, reads, list parameters, DELETE and health, row by row over real HTTP.
@Suite struct RoutesConformanceTests {
    typealias E = ExpectedError
    static let notFound = E(404, "NOT_FOUND", "Resource not found")

    @Test func expressRoutingAndTheAdminMount() async throws {
        try await withConformanceServer { http in
            for path in ["/api/v1/announcements", "/API/V1/Announcements", "/api/v1/announcements/", "/api/admin/v1/announcements",
                         "/Api/Admin/V1/Announcements/"] {
                let answer = try await http.get(path)
                #expect(answer.status == 200, "\(path)")
                #expect(answer.json == ["data": []], "\(path)")
            }
            let created = try await http.postJSON("/api/admin/v1/announcements", PetSpotHTTP.body())
            #expect(created.status == 201)
            let id = try #require(created.json?["id"]?.stringValue)
            #expect(try await http.get("/api/admin/v1/announcements/\(id)").status == 200)
            let head = try await http.send("HEAD", "/api/v1/announcements/\(id)")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("request-id")?.count == 10)
        }
    }

    @Test func unknownRoutesAndUnknownMethodsAre404ResourceNotFound() async throws {
        try await withConformanceServer { http in
            for (method, path) in [("GET", "/x"), ("GET", "/api/v2/announcements"), ("PUT", "/api/v1/announcements"),
                                   ("PATCH", "/api/v1/announcements/abc"), ("GET", "/api/v1/announcements/abc/photos"),
                                   ("POST", "/api/health"), ("DELETE", "/api/v1/announcements")] {
                Self.notFound.check(try await http.send(method, path), "\(method) \(path)")
            }
        }
    }

    @Test func readsAnswerTheAnnouncementOrResourceNotFound() async throws {
        try await withConformanceServer { http in
            Self.notFound.check(try await http.get("/api/v1/announcements/3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c"))
            Self.notFound.check(try await http.get("/images/nothing.png"))
            let (id, _) = try await http.create(PetSpotHTTP.body())
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.status == 200)
            #expect(read.json?["managementPassword"] == nil)
        }
    }

    @Test func theListShowsOnlyAnnouncementsWithAPhotoInCreationOrder() async throws {
        try await withConformanceServer { http in
            var withPhoto: [(id: String, password: String)] = []
            for name in ["First", "Second", "NoPhoto", "Third"] {
                let created = try await http.create(PetSpotHTTP.body([("petName", .string(name))]))
                if name != "NoPhoto" { withPhoto.append(created) }
            }
            // Uploaded in reverse, so the order can only come from creation.
            for (id, password) in withPhoto.reversed() {
                #expect(try await http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png).status == 201)
            }
            let list = try await http.get("/api/v1/announcements")
            #expect(list.json?["data"]?.arrayValue?.compactMap { $0["petName"]?.stringValue } == ["First", "Second", "Third"])
        }
    }

    @Test func healthAnswersOkAndATimestamp() async throws {
        try await withConformanceServer { http in
            let answer = try await http.get("/api/health")
            #expect(answer.status == 200)
            #expect(answer.json?.objectValue?.keys == ["status", "timestamp"])
            #expect(answer.json?["status"] == "ok")
            #expect(answer.json?["timestamp"]?.stringValue?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
        }
    }

    static let uploadAuthRows: [(String?, ExpectedError)] = [
        (nil, E(401, "UNAUTHENTICATED", "Authorization header is required")),
        ("Bearer abc", E(401, "UNAUTHENTICATED", "Invalid Authorization header format")),
        ("Basic", E(401, "UNAUTHENTICATED", "Invalid Authorization header format")),
        ("Basic " + Data("no-colon".utf8).base64EncodedString(), E(401, "UNAUTHENTICATED", "Credentials must be in username:password format")),
        ("Basic " + Data("user:".utf8).base64EncodedString(), E(401, "UNAUTHENTICATED", "Username and password cannot be empty")),
        ("Basic " + Data(":123456".utf8).base64EncodedString(), E(401, "UNAUTHENTICATED", "Username and password cannot be empty")),
    ]

    @Test(arguments: uploadAuthRows)
    func uploadHeaderChecksComeFirst(authorization: String?, expected: ExpectedError) async throws {
        try await withConformanceServer { http in
            let (id, _) = try await http.create(PetSpotHTTP.body())
            expected.check(try await http.upload(id: id, authorization: authorization, bytes: BundledContractsTestSupport.png), "\(authorization ?? "none")")
        }
    }

    @Test func uploadChecksIdThenPasswordThenFile() async throws {
        try await withConformanceServer { http in
            let (id, password) = try await http.create(PetSpotHTTP.body())
            let unknown = "3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c"
            let missing = try await http.send("POST", "/api/v1/announcements/\(unknown)/photos", headers: ["Authorization": BundledContractsTestSupport.basic(unknown, password)])
            E(404, "NOT_FOUND", "Announcement with ID \(unknown) not found").check(missing)
            // The user part is never compared.
            let wrong = try await http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, "000000"), bytes: BundledContractsTestSupport.png)
            E(403, "UNAUTHORIZED", "Invalid credentials for this announcement").check(wrong)
            let auth = BundledContractsTestSupport.basic("anyone", password)
            let missingFile = E(400, "MISSING_FILE", "Photo field is required", field: "photo")
            missingFile.check(try await http.send("POST", "/api/v1/announcements/\(id)/photos", headers: ["Authorization": auth]), "not multipart")
            missingFile.check(try await http.uploadRaw(id: id, authorization: auth, body: PetSpotHTTP.multipart([("note", nil, Array("hi".utf8))])), "text only")
            missingFile.check(try await http.uploadRaw(id: id, authorization: auth, body: PetSpotHTTP.multipart([("photo", "", BundledContractsTestSupport.png)])), "empty filename")
            let notImage = try await http.upload(id: id, authorization: auth, bytes: Array("just text".utf8))
            E(400, "INVALID_FILE_FORMAT", "File is not a valid image format (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, HEIF)", field: "file").check(notImage)
            let stored = try await http.upload(id: id, authorization: auth, bytes: BundledContractsTestSupport.png)
            #expect(stored.status == 201)
            #expect(stored.json == .object(JSONObject()))
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.json?["photoUrl"] == .string("/images/\(id).png"))
            #expect(try await http.get("/images/\(id).png").status == 200)
        }
    }

    /// Odd multipart bodies: the real server answers 500; the mock answers the contract's 400 unless told to reproduce the defect.
    static func oddMultipart(_ id: String) -> [(String, Data, String, Bool)] {
        let png = BundledContractsTestSupport.png
        let type = "multipart/form-data; boundary=B0undary"
        return [
            ("file under another name", PetSpotHTTP.multipart([("document", "a.png", png)]), type, true),
            ("no boundary", PetSpotHTTP.multipart([("photo", "a.png", png)]), "multipart/form-data", false),
            ("cut short", PetSpotHTTP.multipart([("photo", "a.png", png)], close: false), type, false),
            ("second photo", PetSpotHTTP.multipart([("photo", "a.png", png), ("photo", "b.png", png)]), type, false),
            ("1 MiB text field", PetSpotHTTP.multipart([("note", nil, Array(repeating: 0x61, count: 1024 * 1024)), ("photo", "a.png", png)]), type, false),
        ]
    }

    @Test func oddMultipartIsTheContractsAnswerOrTheRealServers500() async throws {
        for defects in [false, true] {
            try await withConformanceServer(knownDefects: defects) { http in
                let (id, password) = try await http.create(PetSpotHTTP.body())
                let auth = BundledContractsTestSupport.basic(id, password)
                for (label, body, type, otherPart) in Self.oddMultipart(id) {
                    let answer = try await http.uploadRaw(id: id, authorization: auth, body: body, contentType: type)
                    let expected = defects ? E(500, "INTERNAL_SERVER_ERROR", "Internal server error")
                        : otherPart ? E(400, "MISSING_FILE", "Photo field is required", field: "photo") : E(400, "INVALID_FORMAT", "Malformed multipart body")
                    expected.check(answer, "\(label), known defects \(defects)")
                }
            }
        }
    }

    static let listRows: [(String, ExpectedError?)] = [
        ("lat=12abc&lng=3", nil), ("lat=52.2&lng=21&range=2", nil), ("range=10", nil), ("lat=&lng=", nil), ("lat=1e1&lng=2", nil),
        ("lat=abc&lng=21", E(400, "INVALID_PARAMETER", "Parameter 'lat' must be a valid number", field: "lat")),
        ("lat=91&lng=21", E(400, "INVALID_PARAMETER", "Parameter 'lat' must be between -90 and 90", field: "lat")),
        ("lat=52&lng=x", E(400, "INVALID_PARAMETER", "Parameter 'lng' must be a valid number", field: "lng")),
        ("lat=52&lng=-180.5", E(400, "INVALID_PARAMETER", "Parameter 'lng' must be between -180 and 180", field: "lng")),
        ("lat=52&lng=21&range=abc", E(400, "INVALID_PARAMETER", "Parameter 'range' must be a valid number", field: "range")),
        ("lat=52&lng=21&range=1.5", E(400, "INVALID_PARAMETER", "Parameter 'range' must be an integer", field: "range")),
        ("range=0", E(400, "INVALID_PARAMETER", "Parameter 'range' must be greater than zero", field: "range")),
        ("range=-2", E(400, "INVALID_PARAMETER", "Parameter 'range' must be a positive number", field: "range")),
        ("lat=52", E(400, "INVALID_PARAMETER", "Parameter 'lng' is required when 'lat' is provided", field: "lng")),
        ("lng=21", E(400, "INVALID_PARAMETER", "Parameter 'lat' is required when 'lng' is provided", field: "lat")),
        ("lat=52&range=0", E(400, "INVALID_PARAMETER", "Parameter 'range' must be greater than zero", field: "range")),
    ]

    @Test(arguments: listRows)
    func listParametersAreReadWithParseFloat(query: String, expected: ExpectedError?) async throws {
        try await withConformanceServer { http in
            let answer = try await http.get("/api/v1/announcements?\(query)")
            if let expected {
                expected.check(answer, "\(query)")
            } else {
                #expect(answer.status == 200, "\(query)")
                #expect(answer.json?["data"]?.arrayValue != nil)
            }
        }
    }

    @Test func deleteTakesTheWholeAuthorizationValueAsTheAdminToken() async throws {
        // No --admin-token on loopback: the real backend's hard-coded token.
        try await withConformanceServer { http in
            let (id, password) = try await http.create(PetSpotHTTP.body())
            _ = try await http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            E(401, "UNAUTHENTICATED", "Missing Authorization header").check(try await http.send("DELETE", "/api/v1/announcements/\(id)"))
            for wrong in ["Bearer tajnehasloadmina", "tajnehasloadmina ", "X"] {
                let answer = try await http.send("DELETE", "/api/v1/announcements/\(id)", headers: ["Authorization": wrong])
                E(401, "UNAUTHENTICATED", "Invalid admin token").check(answer, "\(wrong)")
            }
            let admin = ["Authorization": "tajnehasloadmina"]
            Self.notFound.check(try await http.send("DELETE", "/api/v1/announcements/3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c", headers: admin))
            let deleted = try await http.send("DELETE", "/api/admin/v1/announcements/\(id)", headers: admin)
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            Self.notFound.check(try await http.get("/api/v1/announcements/\(id)"))
            Self.notFound.check(try await http.get("/images/\(id).png"))
        }
        // A given token replaces the default.
        try await withConformanceServer(adminToken: "s3cret") { http in
            let (id, _) = try await http.create(PetSpotHTTP.body())
            let old = try await http.send("DELETE", "/api/v1/announcements/\(id)", headers: ["Authorization": "tajnehasloadmina"])
            E(401, "UNAUTHENTICATED", "Invalid admin token").check(old)
            #expect(try await http.send("DELETE", "/api/v1/announcements/\(id)", headers: ["Authorization": "s3cret"]).status == 204)
        }
    }
}
