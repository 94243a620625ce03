import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PetSpotClient

@Suite struct AnnouncementAPIUnitTests {
    @Test func basicAuthorizationIsIdColonPassword() {
        #expect(AnnouncementAPI.basicAuthorization(user: "id-1", password: "123456") == "Basic " + Data("id-1:123456".utf8).base64EncodedString())
        #expect(AnnouncementAPI.basicAuthorization(user: "a", password: "b") == "Basic YTpi")
    }

    @Test func multipartBodyHasOnePhotoPartWithNameTypeAndBytes() {
        let photo = PhotoAttachment(data: Data([1, 2, 3]), mimeType: "image/jpeg", fileName: "my \"pet\".jpg")
        let form = MultipartFormData(fileField: "photo", attachment: photo, boundary: "B")
        let expected = Data("--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"my \\\"pet\\\".jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + Data([1, 2, 3]) + Data("\r\n--B--\r\n".utf8)
        #expect(form.body == expected)
        #expect(form.contentType == "multipart/form-data; boundary=B")
    }

    @Test func defaultFileNameFollowsTheMimeType() {
        #expect(PhotoAttachment(data: Data(), mimeType: "image/jpeg").fileName == "photo.jpg")
        #expect(PhotoAttachment(data: Data(), mimeType: "image/PNG").fileName == "photo.png")
        #expect(PhotoAttachment(data: Data(), mimeType: "application/x-thing").fileName == "photo.bin")
    }

    @Test func photoURLResolvesPathsAgainstTheBase() {
        let api = AnnouncementAPI(baseURL: URL(string: "http://127.0.0.1:9/")!)
        #expect(api.photoURL(for: "/images/a.jpeg") == URL(string: "http://127.0.0.1:9/images/a.jpeg"))
        #expect(api.photoURL(for: "https://cdn.example.com/x.png") == URL(string: "https://cdn.example.com/x.png"))
    }

    @Test func requestsKeepTheBasePathAndEncodeIdsAsOneSegment() {
        let api = AnnouncementAPI(baseURL: URL(string: "http://127.0.0.1:9/proxy/")!, configuration: .init(requestTimeout: 0.3))
        let request = api.makeRequest(path: ["api", "v1", "announcements", "a/b?c#d"], method: "GET")
        #expect(request.url?.absoluteString == "http://127.0.0.1:9/proxy/api/v1/announcements/a%2Fb%3Fc%23d")
        #expect(request.timeoutInterval == 0.3)
        #expect(request.httpMethod == "GET")
        let bare = AnnouncementAPI(baseURL: URL(string: "http://127.0.0.1:9")!)
        let list = bare.makeRequest(path: ["api", "v1", "announcements"], method: "GET", query: [URLQueryItem(name: "lat", value: "52.5"), URLQueryItem(name: "range", value: "5")])
        #expect(list.url?.absoluteString == "http://127.0.0.1:9/api/v1/announcements?lat=52.5&range=5")
    }

    @Test(arguments: [(52.2297, "52.2297"), (-74.006, "-74.006"), (0.00001, "0.00001"), (0, "0"), (-0.0, "0"), (180, "180")])
    func coordinatesArePlainDecimals(_ value: Double, _ text: String) {
        #expect(AnnouncementAPI.decimal(value) == text)
    }

    @Test func nsErrorsInTheURLDomainBecomeURLErrors() {
        let converted = AnnouncementAPI.urlError(from: NSError(domain: NSURLErrorDomain, code: -1004))
        #expect(converted.code == .cannotConnectToHost)
        let other = AnnouncementAPI.urlError(from: CocoaError(.fileNoSuchFile))
        #expect(other.code == .unknown)
    }

    @Test func errorEnvelopeDecodes() throws {
        let json = Data(#"{"error":{"requestId":"abcdefghij","code":"MISSING_VALUE","message":"species is required","field":"species"}}"#.utf8)
        let envelope = try JSONDecoder().decode(APIErrorEnvelope.self, from: json)
        #expect(envelope == APIErrorEnvelope(requestId: "abcdefghij", code: "MISSING_VALUE", message: "species is required", field: "species"))
    }

    @Test func managementPasswordMustBeSixDigits() {
        #expect(AnnouncementSubmissionService.isManagementPassword("467432"))
        #expect(AnnouncementSubmissionService.isManagementPassword("000000"))
        #expect(!AnnouncementSubmissionService.isManagementPassword("46743"))
        #expect(!AnnouncementSubmissionService.isManagementPassword("4674321"))
        #expect(!AnnouncementSubmissionService.isManagementPassword("46743a"))
        #expect(!AnnouncementSubmissionService.isManagementPassword("٤٦٧٤٣٢"))
        #expect(!AnnouncementSubmissionService.isManagementPassword(""))
    }

    @Test func anIncompleteDraftIsRejectedBeforeAnyRequest() async {
        // Port 9 (discard) on loopback: if a request were made it would fail as a transport error instead.
        let service = AnnouncementSubmissionService(api: AnnouncementAPI(baseURL: URL(string: "http://127.0.0.1:9")!))
        var draft = Samples.draft()
        draft.photo = nil
        do {
            _ = try await service.submit(draft)
            Issue.record("expected invalidDraft")
        } catch {
            guard case .invalidDraft(let problems) = error else { Issue.record("expected invalidDraft, got \(error)"); return }
            #expect(problems.map(\.field) == ["photo"])
        }
    }

    @Test func errorDescriptionsNameTheOperationAndCause() {
        let failure = HTTPStatusFailure(operation: .uploadPhoto, status: 403, expectedStatus: 201, envelope: APIErrorEnvelope(code: "UNAUTHORIZED", message: "Wrong password"), bodyExcerpt: "{}")
        #expect(failure.description == "uploadPhoto answered HTTP 403, expected 201 (UNAUTHORIZED: Wrong password)")
        let error = SubmissionError.photoUploadFailed(announcementID: "x", error: .http(failure))
        #expect(error.description.contains("Announcement x was created but the photo upload failed"))
    }
}
