import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

@Suite struct BundledContractsPartsTests {
    typealias S = BundledContractsTestSupport

    @Test func imageTypesAreDetectedByTheirMagicBytes() {
        // A TIFF directory with one tag (ImageWidth) after the 8-byte header.
        let littleTIFF: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x00, 0x01] + [UInt8](repeating: 0, count: 10)
        let samples: [([UInt8], ImageType?)] = [
            (S.jpeg, .jpeg), (S.png, .png), (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif), (Array("GIF87a".utf8) + [1, 0], .gif),
            (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
            (Array("BM".utf8) + [0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], .bmp),
            (littleTIFF, .tiff), ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0], .tiff),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic), ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heif),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0], nil),
            (Array("RIFF....WAVE".utf8), nil), ([], nil), ([0xFF, 0xD8], nil), (Array("%PDF-1.4".utf8), nil),
        ]
        for (bytes, type) in samples { #expect(ImageType.detect(bytes) == type, "\(bytes.prefix(12))") }
        #expect(ImageType.allCases.map(\.contentType).contains("image/heif"))
    }

    /// file-type 21.1.1's corners, which the real backend's magic-byte check inherits (petspot-api.md, "Quirks").
    @Test func imageDetectionFollowsFileTypeTwentyOneOneOne() {
        let zeros = [UInt8](repeating: 0, count: 64)
        // Two bytes "BM" are a bitmap whatever follows; "GIF" alone is a GIF.
        #expect(ImageType.detect(Array("BMW is a car".utf8)) == .bmp)
        #expect(ImageType.detect(Array("GIF".utf8) + [0x20]) == .gif)
        // A TIFF byte-order mark padded with zeros points its directory at offset 0, whose tag count ("II" = 18761
        // tags) runs past the end: not an image. So does a directory offset past the end.
        #expect(ImageType.detect([0x49, 0x49, 0x2A, 0x00] + zeros) == nil)
        #expect(ImageType.detect([0x4D, 0x4D, 0x00, 0x2A] + zeros) == nil)
        #expect(ImageType.detect([0x49, 0x49, 0x2A, 0x00, 0xFF, 0, 0, 0] + zeros) == nil)
        // BigTIFF (version 43) is a TIFF without reading further; Canon CR2, Sony ARW and Adobe DNG are not accepted.
        #expect(ImageType.detect([0x49, 0x49, 0x2B, 0x00] + zeros) == .tiff)
        #expect(ImageType.detect([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0] + Array("CR".utf8) + zeros) == nil)
        #expect(ImageType.detect([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0xC6] + [UInt8](repeating: 0, count: 10)) == nil)
        // JPEG-LS, APNG and the HEIF sequence and video brands are other MIME types.
        #expect(ImageType.detect([0xFF, 0xD8, 0xFF, 0xF7] + zeros) == nil)
        let pngHead: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(ImageType.detect(pngHead + [0, 0, 0, 8] + Array("acTL".utf8) + zeros) == nil)
        #expect(ImageType.detect(pngHead + [0, 0, 0, 0] + Array("IDAT".utf8) + zeros) == .png)
        // A PNG cut inside its first chunk header is a read past the end.
        #expect(ImageType.detect(pngHead + [0, 0]) == nil)
        for brand in ["msf1", "hevc", "hevx", "heim", "avif"] {
            #expect(ImageType.detect([0, 0, 0, 0x18] + Array("ftyp\(brand)".utf8) + zeros) == nil, "\(brand)")
        }
        // Detection reads a Data slice that does not start at index 0 the same way.
        let padded = Data([9, 9] + S.jpeg)
        #expect(ImageType.detect(padded[2...]) == .jpeg)
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
        // A point to itself is not exactly 0 in floating point (acos of 0.9999999999999999), or NaN (see below).
        #expect(GreatCircle.distanceKm(latitude1: 10, longitude1: 10, latitude2: 10, longitude2: 10) < 0.001)
        // Antipodes: half the circumference.
        #expect(abs(GreatCircle.distanceKm(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 180) - .pi * 6371) < 0.001)
    }

    /// SQLite's `acos` of an argument rounded just above 1 is NULL, so an announcement at exactly the query point can
    /// drop out of the filtered list, as it does on the real backend (petspot-api.md, "Quirks").
    @Test func theDistanceOfAPointToItselfCanBeUndefinedAsInSQLite() {
        let samePoints: [(Double, Double)] = (0..<200).map { (i: Int) -> (Double, Double) in
            (Double(i) * 0.37 - 37, Double(i) * 1.13 - 113)
        }
        let undefined: [(Double, Double)] = samePoints.filter { (point: (Double, Double)) -> Bool in
            GreatCircle.distanceKm(latitude1: point.0, longitude1: point.1, latitude2: point.0, longitude2: point.1).isNaN
        }
        #expect(!undefined.isEmpty && undefined.count < samePoints.count)
        let (lat, lng) = undefined[0]
        let query = ListQuery(latitude: lat, longitude: lng, rangeKm: 5)
        #expect(!query.includes(latitude: lat, longitude: lng))
        // The filter is strict: a point exactly `range` away is out.
        let oneDegree: Double = GreatCircle.distanceKm(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 1)
        let far = ListQuery(latitude: 0, longitude: 0, rangeKm: oneDegree)
        #expect(!far.includes(latitude: 0, longitude: 1))
        #expect(far.includes(latitude: 0, longitude: 0.999))
    }

    @Test func timestampsHaveMillisecondsAndZ() {
        #expect(Timestamp.string(from: S.now) == "2025-11-20T12:00:00.000Z")
        #expect(Timestamp.string(from: S.now.addingTimeInterval(0.25)) == "2025-11-20T12:00:00.250Z")
        #expect(Timestamp.day(of: S.now) == "2025-11-20")
        #expect(Timestamp.isValid("2025-11-19T10:00:00.000Z"))
        #expect(!Timestamp.isValid("2025-11-19T10:00:00Z"))
    }

    @Test func seededRandomnessRepeatsAndLooksRight() {
        var a = ModelRandom(seed: 42)
        var b = ModelRandom(seed: 42)
        #expect(a.uuid() == b.uuid())
        #expect(a.sixDigits() == b.sixDigits())
        let id = a.requestID()
        #expect(id == b.requestID())
        #expect(id.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil)
        var unseeded = ModelRandom(seed: nil)
        #expect(unseeded.uuid() != unseeded.uuid())
        for _ in 0..<200 {
            let p = Int(a.sixDigits()) ?? 0
            #expect((100_000...999_999).contains(p))
        }
    }

    @Test func routesDecodeSegmentsWithoutLettingEncodedSlashesSplitThem() throws {
        let routes = try S.loadedContracts().routes
        func route(_ method: String, _ path: String) -> RouteMatch { routes.resolve(method: method, path: path) }
        func endpoint(_ id: String, _ method: String, _ path: String, _ parameters: [String: String] = [:]) -> Bool {
            guard case .endpoint(_, let contractID, let found) = route(method, path) else { return false }
            return contractID == id && found == parameters
        }
        #expect(endpoint("listAnnouncements", "GET", "/api/v1/announcements/"))
        #expect(endpoint("getAnnouncement", "GET", "/api/v1/announcements/a%2Fb", ["id": "a/b"]))
        #expect(route("POST", "/api/v1/announcements/a%2Fphotos") == .notFound)
        #expect(endpoint("uploadPhoto", "POST", "/api/v1/announcements/abc/photos", ["id": "abc"]))
        #expect(endpoint("getImage", "GET", "/images/..%2Fsecret", ["file": "../secret"]))
        #expect(route("GET", "/images/../secret") == .notFound)
        #expect(route("OPTIONS", "/anything") == .preflight)
        #expect(route("GET", "relative") == .notFound)
        // Express's matching, as service.json states it: literal case is ignored, one trailing slash, HEAD as GET.
        #expect(endpoint("health", "GET", "/API/Health"))
        #expect(endpoint("health", "HEAD", "/api/health/"))
        #expect(route("GET", "/api/health//") == .notFound)
        #expect(endpoint("getAnnouncement", "GET", "/Api/V1/Announcements/AbC", ["id": "AbC"]))
        // An undecodable parameter fails a matching path whatever the method; under the static mount it is a miss.
        #expect(route("GET", "/api/v1/announcements/%E0%A4%A") == .undecodableParameter)
        #expect(route("PUT", "/api/v1/announcements/%ZZ") == .undecodableParameter)
        #expect(route("GET", "/images/%ZZ") == .notFound)
        // An unknown method on a known path is the not-found answer.
        #expect(route("PUT", "/api/v1/announcements") == .notFound)
        // The admin mount: x-also-at makes the whole router answer there; its DELETE is documented by its own contract.
        #expect(endpoint("getAnnouncement", "GET", "/api/admin/v1/announcements/x", ["id": "x"]))
        #expect(endpoint("listAnnouncements", "GET", "/api/admin/v1/announcements"))
        #expect(endpoint("adminDeleteAnnouncement", "DELETE", "/api/admin/v1/announcements/x", ["id": "x"]))
        #expect(endpoint("deleteAnnouncement", "DELETE", "/api/v1/announcements/x", ["id": "x"]))
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
        let check = ResponseContractCheck(contracts: try S.loadedContracts(), multipart: MultipartKitScanner())
        var headers = HTTPHeaders([("request-id", "abcdefghij"), ("Content-Type", "application/json")])
        let missingKeys = MockResponse(status: .ok, headers: headers, body: ByteBuffer(string: #"{"id": "x"}"#))
        #expect(!check.problems(contractID: "getAnnouncement", response: missingKeys.modelAnswer).isEmpty)
        let undocumented = MockResponse(status: .imATeapot, headers: headers, body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "getAnnouncement", response: undocumented.modelAnswer).contains { $0.contains("not documented") })
        headers.remove(name: "request-id")
        let noRequestID = MockResponse(status: .created, headers: headers, body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "uploadPhoto", response: noRequestID.modelAnswer).contains { $0.contains("request-id") })
        let mismatchedEnvelope = MockResponse(
            status: .notFound, headers: ["request-id": "abcdefghij"],
            body: ByteBuffer(string: #"{"error": {"requestId": "zzzzzzzzzz", "code": "NOT_FOUND", "message": "x"}}"#))
        #expect(!check.problems(contractID: nil, response: mismatchedEnvelope.modelAnswer).isEmpty)
        let image = MockResponse(status: .ok, headers: ["request-id": "abcdefghij", "Content-Type": "text/plain"], body: ByteBuffer(string: "x"))
        #expect(check.problems(contractID: "getImage", response: image.modelAnswer).contains { $0.contains("Content-Type") })
        #expect(ResponseContractCheck.mediaType("image/png", matches: "image/*"))
        #expect(!ResponseContractCheck.mediaType("text/png", matches: "image/*"))
        let good = MockResponse(status: .created, headers: ["request-id": "abcdefghij"], body: ByteBuffer(string: "{}"))
        #expect(check.problems(contractID: "uploadPhoto", response: good.modelAnswer).isEmpty)
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
