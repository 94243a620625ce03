import Foundation
import Testing

@testable import PetSpotClient

/// Where decoding failed travels from the `DecodingError` to the cause a driver reports (protocol `cause.decodingPath`).
@Suite struct DecodingPathTests {
    static func decodingError(_ json: String) -> (any Error)? {
        do {
            _ = try JSONDecoder().decode(Announcement.self, from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aWrongTypeAndAMissingKeyNameTheirPointer() throws {
        let wrongType = try #require(Self.decodingError(#"{"id": "x", "species": "DOG", "sex": "MALE", "status": 7, "lastSeenDate": "2025-01-01", "locationLatitude": 1, "locationLongitude": 2}"#))
        #expect(AnnouncementAPI.codingPath(of: wrongType) == "/status")
        let missing = try #require(Self.decodingError(#"{"species": "DOG"}"#))
        #expect(AnnouncementAPI.codingPath(of: missing)?.hasPrefix("/") == true)
        #expect(AnnouncementAPI.codingPath(of: URLError(.timedOut)) == nil)
    }

    @Test func anUndecodableBodyCarriesItsPathIntoTheCause() {
        let body = UndecodableBody(operation: .getAnnouncement, status: 200, reason: "expected String but found null at /photoUrl", bodyExcerpt: "{}",
                                   codingPath: "/photoUrl")
        let cause = ErrorMapping.cause(for: AnnouncementAPIError.undecodableBody(body))
        #expect(cause.kind == .decoding)
        #expect(cause.decodingPath == "/photoUrl")
    }
}
