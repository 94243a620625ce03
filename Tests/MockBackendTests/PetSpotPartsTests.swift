import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import MockBackend

@Suite struct PetSpotPartsTests {
    typealias S = PetSpotTestSupport

    @Test func imageTypesAreDetectedByTheirMagicBytes() {
        let samples: [([UInt8], ImageType?)] = [
            (S.jpeg, .jpeg), (S.png, .png), (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif), (Array("GIF87a".utf8) + [1, 0], .gif),
            (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
            (Array("BM".utf8) + [0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], .bmp),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff), ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic), ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heif),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0], nil), (Array("BMW is a car".utf8), nil),
            (Array("RIFF....WAVE".utf8), nil), ([], nil), ([0xFF, 0xD8], nil), (Array("%PDF-1.4".utf8), nil),
        ]
        for (bytes, type) in samples { #expect(ImageType.detect(bytes) == type, "\(bytes.prefix(12))") }
        #expect(ImageType.allCases.map(\.contentType).contains("image/heif"))
    }

    @Test func basicCredentialsFollowTheRealBackendsRules() {
        func parse(_ h: String?) -> Result<BasicCredentials, BasicCredentials.Problem> { BasicCredentials.parse(authorization: h) }
        #expect(parse(nil) == .failure(.missingHeader))
        #expect(parse("Bearer x") == .failure(.notBasicScheme))
        #expect(parse("Basic") == .failure(.notBasicScheme))
        #expect(parse("Basic ***") == .failure(.invalidBase64))
        #expect(parse("Basic " + Data([0xFF, 0xFE, 0x3A, 0x41]).base64EncodedString()) == .failure(.invalidBase64))
        #expect(parse("Basic " + Data("abc".utf8).base64EncodedString()) == .failure(.noColon))
        #expect(parse("Basic " + Data(":pw".utf8).base64EncodedString()) == .failure(.emptyUserOrPassword))
        #expect(parse("bAsIc " + Data("id:pa:ss".utf8).base64EncodedString()) == .success(BasicCredentials(user: "id", password: "pa:ss")))
        // Unpadded base64 ("id:12" is 5 bytes, normally padded with "=").
        #expect(parse("Basic aWQ6MTI") == .success(BasicCredentials(user: "id", password: "12")))
    }

    @Test func constantTimeComparisonIsStillAComparison() {
        #expect(BasicCredentials.constantTimeEquals("123456", "123456"))
        #expect(!BasicCredentials.constantTimeEquals("123456", "123457"))
        #expect(!BasicCredentials.constantTimeEquals("123456", "1234567"))
        #expect(!BasicCredentials.constantTimeEquals("", "1"))
        #expect(BasicCredentials.constantTimeEquals("", ""))
    }

    @Test func htmlSanitizerDropsTagsAndScriptContent() {
        #expect(HTMLSanitizer.strip("<b>Rex</b>") == "Rex")
        #expect(HTMLSanitizer.strip("a<script>x()</script>b") == "ab")
        #expect(HTMLSanitizer.strip("a<style>p{}</style>b") == "ab")
        // The xss package's corners (petspot-api.md, "Quirks"); the conformance suite has the full table.
        #expect(HTMLSanitizer.strip("<script>never closed") == "[removed]never closed")
        #expect(HTMLSanitizer.strip("1 < 2 and 3 > 2") == "1  2")
        #expect(HTMLSanitizer.strip("<!-- note -->kept") == "kept")
        #expect(HTMLSanitizer.strip("  plain text  ") == "plain text")
        #expect(HTMLSanitizer.strip("  plain text  ", trim: false) == "  plain text  ")
        #expect(HTMLSanitizer.strip("a < b", trim: false) == "a ")
        #expect(HTMLSanitizer.strip("5 > 3") == "5 &gt; 3")
        #expect(HTMLSanitizer.strip("\u{1F436}<b\u{1F436}") == "\u{1F436}")
        #expect(HTMLSanitizer.strip("x<script\u{1F436}") == "x")
    }

    @Test func greatCircleDistancesMatchKnownValues() {
        // Warsaw to Kraków is about 252 km.
        let d = GreatCircle.distanceKm(latitude1: 52.2297, longitude1: 21.0122, latitude2: 50.0614, longitude2: 19.9366)
        #expect(abs(d - 252.5) < 1)
        #expect(GreatCircle.distanceKm(latitude1: 10, longitude1: 10, latitude2: 10, longitude2: 10) == 0)
        // Antipodes: half the circumference.
        #expect(abs(GreatCircle.distanceKm(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 180) - .pi * 6371) < 0.001)
    }

    @Test func timestampsHaveMillisecondsAndZ() {
        #expect(Timestamp.string(from: S.now) == "2025-11-20T12:00:00.000Z")
        #expect(Timestamp.string(from: S.now.addingTimeInterval(0.25)) == "2025-11-20T12:00:00.250Z")
        #expect(Timestamp.day(of: S.now) == "2025-11-20")
        #expect(Timestamp.isValid("2025-11-19T10:00:00.000Z"))
        #expect(!Timestamp.isValid("2025-11-19T10:00:00Z"))
    }

    @Test func seededRandomnessRepeatsAndLooksRight() {
        var a = PetSpotRandom(seed: 42)
        var b = PetSpotRandom(seed: 42)
        #expect(a.uuid() == b.uuid())
        #expect(a.managementPassword() == b.managementPassword())
        let id = a.requestID()
        #expect(id == b.requestID())
        #expect(id.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil)
        var unseeded = PetSpotRandom(seed: nil)
        #expect(unseeded.uuid() != unseeded.uuid())
        for _ in 0..<200 {
            let p = Int(a.managementPassword()) ?? 0
            #expect((100_000...999_999).contains(p))
        }
    }

    @Test func routesDecodeSegmentsWithoutLettingEncodedSlashesSplitThem() {
        #expect(PetSpotRoute(method: .GET, path: "/api/v1/announcements/") == .listAnnouncements)
        #expect(PetSpotRoute(method: .GET, path: "/api/v1/announcements/a%2Fb") == .getAnnouncement(id: "a/b"))
        #expect(PetSpotRoute(method: .POST, path: "/api/v1/announcements/a%2Fphotos") == .unknown)
        #expect(PetSpotRoute(method: .POST, path: "/api/v1/announcements/abc/photos") == .uploadPhoto(id: "abc"))
        #expect(PetSpotRoute(method: .GET, path: "/images/..%2Fsecret") == .image(file: "../secret"))
        #expect(PetSpotRoute(method: .GET, path: "/images/../secret") == .unknown)
        #expect(PetSpotRoute(method: .OPTIONS, path: "/anything") == .preflight)
        #expect(PetSpotRoute(method: .GET, path: "relative") == .unknown)
    }

    @Test func multipartFindsOnlyCompleteFilePartsWithTheRightName() {
        let body = S.multipart(bytes: S.png)
        let type = "multipart/form-data; boundary=XyZBoundary42"
        #expect(MultipartPhoto.file(named: "photo", in: body, contentType: type).map { Array($0.readableBytesView) } == S.png)
        #expect(MultipartPhoto.file(named: "photo", in: body, contentType: "multipart/form-data; boundary=\"XyZBoundary42\"") != nil)
        #expect(MultipartPhoto.file(named: "other", in: body, contentType: type) == nil)
        #expect(MultipartPhoto.file(named: "photo", in: body, contentType: "multipart/form-data; boundary=") == nil)
        #expect(MultipartPhoto.file(named: "photo", in: body, contentType: "multipart/form-data; boundary=" + String(repeating: "a", count: 71)) == nil)
        #expect(MultipartPhoto.parameters(of: #"form-data; name="photo"; filename="a;b=c.png""#) == ["name": "photo", "filename": "a;b=c.png"])
        // Bytes that look like CRLF and dashes inside the file must not end the part.
        let tricky: [UInt8] = S.png + Array("\r\n--XyZ\r\n-".utf8) + [0x0D, 0x0A]
        let trickyBody = S.multipart(bytes: tricky)
        #expect(MultipartPhoto.file(named: "photo", in: trickyBody, contentType: type).map { Array($0.readableBytesView) } == tricky)
    }

    @Test func responseChecksCatchAnAnswerThatBreaksItsContract() throws {
        let check = ResponseContractCheck(contracts: try S.loadedContracts())
        var headers = HTTPHeaders([("request-id", "abcdefghij"), ("Content-Type", "application/json")])
        let missingKeys = MockResponse(status: .ok, headers: headers, body: ByteBuffer(string: #"{"id": "x"}"#))
        #expect(!check.problems(contractID: "getAnnouncement", response: missingKeys).isEmpty)
        let undocumented = MockResponse(status: .imATeapot, headers: headers, body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "getAnnouncement", response: undocumented).contains { $0.contains("not documented") })
        headers.remove(name: "request-id")
        let noRequestID = MockResponse(status: .created, headers: headers, body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "uploadPhoto", response: noRequestID).contains { $0.contains("request-id") })
        let mismatchedEnvelope = MockResponse(
            status: .notFound, headers: ["request-id": "abcdefghij"],
            body: ByteBuffer(string: #"{"error": {"requestId": "zzzzzzzzzz", "code": "NOT_FOUND", "message": "x"}}"#))
        #expect(!check.problems(contractID: nil, response: mismatchedEnvelope).isEmpty)
        let image = MockResponse(status: .ok, headers: ["request-id": "abcdefghij", "Content-Type": "text/plain"], body: ByteBuffer(string: "x"))
        #expect(check.problems(contractID: "getImage", response: image).contains { $0.contains("Content-Type") })
        #expect(ResponseContractCheck.mediaType("image/png", matches: "image/*"))
        #expect(!ResponseContractCheck.mediaType("text/png", matches: "image/*"))
        let good = MockResponse(status: .created, headers: ["request-id": "abcdefghij"], body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "uploadPhoto", response: good).isEmpty)
    }
}

@Suite struct MockRequestTests {
    @Test func pathAndQueryFollowTheURI() {
        var request = MockRequest(method: .GET, uri: "/api/v1/announcements?lat=1&lng=2")
        #expect(request.path == "/api/v1/announcements")
        #expect(request.query == "lat=1&lng=2")
        request.uri = "/api/health"
        #expect(request.path == "/api/health")
        #expect(request.query == nil)
        request.uri = "/x?"
        #expect(request.path == "/x")
        #expect(request.query == "")
    }
}
