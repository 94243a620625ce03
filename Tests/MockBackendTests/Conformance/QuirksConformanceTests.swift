import ContractKit
import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend

/// petspot-api.md, "Quirks of the real backend (9ae1f4b)", row by row over real HTTP: the corners generated requests
/// reach and examples never do.
@Suite struct QuirksConformanceTests {
    typealias E = ExpectedError

    /// The `xss` package (empty allow-list, ignored tags stripped, script/style bodies removed): sent → stored.
    static let sanitizerRows: [(String, String)] = [
        ("5 > 3", "5 &gt; 3"),
        ("a < b", "a "),
        ("a <", "a &lt;"),
        ("1 < 2 and 3 > 2", "1  2"),
        ("<b>Rex</b>", "Rex"),
        ("  <i>spaced</i>  ", "  spaced  "),
        ("Tom & \"Jerry\" 'x'", "Tom & \"Jerry\" 'x'"),
        ("x<!-- note -->y", "xy"),
        ("x<!-- never closed <b>", "x"),
        ("<!-->y", "y"),
        ("a<script>x()</script>b", "ab"),
        ("<script>alert(1)", "[removed]alert(1)"),
        ("<SCRIPT>x</SCRIPT >y", "y"),
        ("<script><script>x</script>", "[removed]"),
        ("<style>p{}</style>Brown", "Brown"),
        // Issue 22: the stray "<" is escaped, so no live <img onerror> is ever stored.
        ("<<img>img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("<a href=\"x>y\">Rex</a>", "Rex"),
        ("<a title=\"never closed>Rex", "&lt;a title=\"never closed&gt;Rex"),
    ]

    @Test(arguments: sanitizerRows)
    func textIsStoredAsTheXSSPackageLeavesIt(sent: String, stored: String) async throws {
        try await withConformanceServer { http in
            let created = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("description", .string(sent))]))
            #expect(created.status == 201, "\(sent)")
            #expect(created.json?["description"] == .string(stored), "\(sent)")
            #expect(created.contractViolation == nil)
        }
    }

    @Test func contactDatesAndStatusAreNeverSanitized() async throws {
        try await withConformanceServer { http in
            let created = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([
                ("email", "<b>a@b.co</b>"), ("phone", "<i>1</i> > 0"), ("species", "<b>DOG</b> > CAT"),
            ]))
            #expect(created.status == 201)
            #expect(created.json?["email"] == "<b>a@b.co</b>")
            #expect(created.json?["phone"] == "<i>1</i> > 0")
            #expect(created.json?["species"] == "DOG &gt; CAT")
        }
    }

    /// `new Date('YYYY-MM-DD')` after the pattern: a day past the month's end rolls over, day 32 or month 13 is invalid,
    /// and the future check reports an invalid date as in the future.
    static let dateRows: [(String, ExpectedError?)] = [
        ("2025-02-30", nil),
        ("2025-04-31", nil),
        ("2024-02-29", nil),
        ("2025-02-32", E(400, "INVALID_FORMAT", "lastSeenDate cannot be in the future", field: "lastSeenDate")),
        ("2025-13-01", E(400, "INVALID_FORMAT", "lastSeenDate cannot be in the future", field: "lastSeenDate")),
        ("2025-00-10", E(400, "INVALID_FORMAT", "lastSeenDate cannot be in the future", field: "lastSeenDate")),
        ("2025-02-00", E(400, "INVALID_FORMAT", "lastSeenDate cannot be in the future", field: "lastSeenDate")),
    ]

    @Test(arguments: dateRows)
    func datesRollOverLikeJavaScript(date: String, expected: ExpectedError?) async throws {
        try await withConformanceServer { http in
            let answer = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("lastSeenDate", .string(date))]))
            if let expected {
                expected.check(answer, "\(date)")
            } else {
                #expect(answer.status == 201, "\(date)")
                #expect(answer.json?["lastSeenDate"] == .string(date), "stored as sent")
            }
        }
    }

    @Test func aDayRolledIntoTomorrowIsInTheFuture() {
        #expect(Timestamp.javaScriptDay("2025-11-31") == "2025-12-01")
        #expect(Timestamp.javaScriptDay("2025-12-32") == nil)
        #expect(Timestamp.javaScriptDay("2025-12-31") == "2025-12-31")
        #expect(Timestamp.javaScriptDay("2023-02-29") == "2023-03-01")
        #expect(Timestamp.javaScriptDay("1999-12-31") == "1999-12-31")
        let rules = try? BundledContractsTestSupport.loadedContracts().requestRules["createAnnouncement"]?.body
        let today = RuleContext(today: "2025-11-30")
        let rolled = rules?.firstRefusal(in: PetSpotHTTP.body([("lastSeenDate", "2025-11-31")]), context: today)
        #expect(rolled?.message == "lastSeenDate cannot be in the future")
        #expect(rules != nil && rules?.firstRefusal(in: PetSpotHTTP.body([("lastSeenDate", "2025-11-30")]), context: today) == nil)
    }

    @Test func optionsIsTheCORSLayersAnswerWithoutARequestID() async throws {
        try await withConformanceServer { http in
            for path in ["/api/v1/announcements", "/api/v1/announcements/abc/photos", "/nowhere", "/api/health"] {
                let answer = try await http.send("OPTIONS", path, headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
                #expect(answer.status == 204, "\(path)")
                #expect(answer.header("request-id") == nil, "\(path)")
                #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(path)")
                #expect(answer.header("X-Powered-By") == "Express", "\(path)")
                #expect(answer.header("ETag") == nil, "\(path)")
                #expect(answer.body.isEmpty, "\(path)")
            }
        }
    }

    @Test func answersCarryXPoweredByAndExpresssWeakETag() async throws {
        try await withConformanceServer { http in
            let (id, password) = try await http.create(PetSpotHTTP.body())
            let read = try await http.get("/api/v1/announcements/\(id)")
            #expect(read.header("X-Powered-By") == "Express")
            #expect(read.header("ETag") == ExpressETag.weak(for: Array(read.body)))
            #expect(read.header("ETag")?.wholeMatch(of: /W\/"[0-9a-f]+-[A-Za-z0-9+\/]{27}"/) != nil)
            // Errors go through res.send as well, so they carry one too.
            let missing = try await http.get("/api/v1/announcements/nope")
            #expect(missing.header("ETag") == ExpressETag.weak(for: Array(missing.body)))
            #expect(missing.header("X-Powered-By") == "Express")
            let uploaded = try await http.upload(id: id, authorization: BundledContractsTestSupport.basic(id, password), bytes: BundledContractsTestSupport.png)
            #expect(uploaded.status == 201)
            #expect(uploaded.header("ETag") == #"W/"2-vyGp6PvFo4RvsFtPoIWeCReyIC8""#)
            // The store keeps each announcement's ETag once read; the photo changed the JSON, so the tag follows it.
            let again = try await http.get("/api/v1/announcements/\(id)")
            #expect(again.body != read.body)
            #expect(again.header("ETag") == ExpressETag.weak(for: Array(again.body)))
            #expect(again.header("ETag") != read.header("ETag"))
            #expect(try await http.get("/api/v1/announcements/\(id)").header("ETag") == again.header("ETag"))
        }
    }

    @Test func aMatchingIfNoneMatchOnAGetAnswers304WithoutABody() async throws {
        try await withConformanceServer { http in
            let (id, _) = try await http.create(PetSpotHTTP.body())
            let etag = try #require(try await http.get("/api/v1/announcements/\(id)").header("ETag"))
            let port = try #require(http.baseURL.port)
            func raw(_ method: String, _ path: String, _ headers: String) async throws -> RawRead {
                let connection = try await RawConnection.connect(
                    port: port, sending: "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
                defer { connection.close() }
                return await connection.readResponse()
            }
            let path = "/api/v1/announcements/\(id)"
            let strongForm = String(etag.dropFirst(2))
            for header in ["If-None-Match: \(etag)\r\n", "If-None-Match: \"x\", \(strongForm)\r\n", "If-None-Match: *\r\n"] {
                let fresh = try await raw("GET", path, header)
                #expect(fresh.status == 304, "\(header)")
                #expect(fresh.body == [], "\(header)")
                #expect(!fresh.text.lowercased().contains("content-type"), "\(header)")
                #expect(fresh.text.contains("ETag: \(etag)"), "\(header)")
            }
            #expect(try await raw("HEAD", path, "If-None-Match: \(etag)\r\n").status == 304)
            // Stale: another tag, no-cache, If-Modified-Since (these answers have no Last-Modified), an error answer.
            #expect(try await raw("GET", path, "If-None-Match: W/\"2-x\"\r\n").status == 200)
            #expect(try await raw("GET", path, "If-None-Match: \(etag)\r\nCache-Control: no-cache\r\n").status == 200)
            #expect(try await raw("GET", path, "If-None-Match: \(etag)\r\nIf-Modified-Since: Tue, 01 Jan 2030 00:00:00 GMT\r\n").status == 200)
            #expect(try await raw("GET", "/api/v1/announcements/nope", "If-None-Match: *\r\n").status == 404)
        }
    }

    @Test func anUndecodablePathParameterIsExpresssUncaught500() async throws {
        try await withConformanceServer { http in
            // Raw requests: URLSession would re-encode a malformed escape before sending it.
            let port = try #require(http.baseURL.port)
            func raw(_ method: String, _ path: String) async throws -> RawRead {
                let connection = try await RawConnection.connect(
                    port: port, sending: "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                defer { connection.close() }
                return await connection.readResponse()
            }
            func envelope(_ read: RawRead) -> JSONValue? { read.body.flatMap { try? JSONValue(parsing: $0) } }
            for (method, path) in [("GET", "/api/v1/announcements/%E0%A4%A"), ("DELETE", "/api/v1/announcements/%ZZ"),
                                   ("PUT", "/api/v1/announcements/%"), ("POST", "/api/admin/v1/announcements/%FF/photos"),
                                   ("GET", "/api/v1/announcements/%ZZ/photos")] {
                let answer = try await raw(method, path)
                #expect(answer.status == 500, "\(method) \(path)")
                #expect(envelope(answer)?["error"]?["code"] == "INTERNAL_SERVER_ERROR", "\(method) \(path)")
                #expect(envelope(answer)?["error"]?["message"] == "Internal server error", "\(method) \(path)")
                #expect(answer.text.contains("request-id: "), "\(method) \(path)")
            }
            // A literal segment is compared raw, and the static file server treats a bad name as a miss.
            for path in ["/api/v1/%61nnouncements", "/images/%ZZ"] {
                let answer = try await raw("GET", path)
                #expect(answer.status == 404, "\(path)")
                #expect(envelope(answer)?["error"]?["message"] == "Resource not found", "\(path)")
            }
        }
    }

    @Test func trimmedOnlyToCheckSoAPaddedMicrochipDoesNotConflict() async throws {
        try await withConformanceServer { http in
            #expect(try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", "123")])).status == 201)
            let padded = try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", " 123 ")]))
            #expect(padded.status == 201)
            #expect(padded.json?["microchipNumber"] == " 123 ")
            E(409, "CONFLICT", "An entity with this value already exists", field: "microchipNumber")
                .check(try await http.postJSON("/api/v1/announcements", PetSpotHTTP.body([("microchipNumber", "123")])))
        }
    }
}
