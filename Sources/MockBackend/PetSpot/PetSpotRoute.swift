import Foundation
import NIOHTTP1

/// The endpoints of the PetSpot API, recognised from method and path; path parameters are percent-decoded single segments.
public enum PetSpotRoute: Sendable, Equatable {
    /// `GET /api/health`.
    case health
    /// `GET /api/v1/announcements` (every announcement route also answers under `/api/admin/v1/announcements`).
    case listAnnouncements
    /// `POST /api/v1/announcements`.
    case createAnnouncement
    /// `GET /api/v1/announcements/:id`.
    case getAnnouncement(id: String)
    /// `DELETE /api/v1/announcements/:id`.
    case deleteAnnouncement(id: String)
    /// `POST /api/v1/announcements/:id/photos`.
    case uploadPhoto(id: String)
    /// `GET /images/:file`.
    case image(file: String)
    /// A CORS preflight (`OPTIONS` on any path).
    case preflight
    /// No such route: 404 NOT_FOUND.
    case unknown

    /// The id of the contract that documents this route, if any (preflights and unknown routes have none).
    public var contractID: String? {
        switch self {
        case .health: return "health"
        case .listAnnouncements: return "listAnnouncements"
        case .createAnnouncement: return "createAnnouncement"
        case .getAnnouncement: return "getAnnouncement"
        case .deleteAnnouncement: return "deleteAnnouncement"
        case .uploadPhoto: return "uploadPhoto"
        case .image: return "getImage"
        case .preflight, .unknown: return nil
        }
    }

    /// The route for `method` and the path part of a request target.
    ///
    /// Segments are split before decoding, so an encoded slash (`%2F`) stays inside its segment and can never reach another route.
    public init(method: HTTPMethod, path: String) {
        if method == .OPTIONS {
            self = .preflight
            return
        }
        // Split on bytes: the server asks for the route three times per request, and Character splitting dominated the profile.
        var raw = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { String(Substring($0)) }
        // Express routing is not strict: one trailing slash is ignored.
        if raw.count > 1, raw.last == "" { raw.removeLast() }
        guard path.hasPrefix("/"), let segments = Self.decode(raw) else {
            self = .unknown
            return
        }
        let isRead = method == .GET || method == .HEAD
        // Express matches literal segments case-insensitively; parameters keep their case.
        let literal = segments.map { $0.lowercased() }
        // The announcements router is mounted at /api/v1/announcements and again at /api/admin/v1/announcements.
        let mount = literal.starts(with: ["api", "v1", "announcements"]) ? 3 : literal.starts(with: ["api", "admin", "v1", "announcements"]) ? 4 : 0
        let rest = segments.dropFirst(mount)
        if mount > 0 {
            switch rest.count {
            case 0:
                self = isRead ? .listAnnouncements : method == .POST ? .createAnnouncement : .unknown
            case 1 where !rest[mount].isEmpty:
                self = isRead ? .getAnnouncement(id: rest[mount]) : method == .DELETE ? .deleteAnnouncement(id: rest[mount]) : .unknown
            case 2 where !rest[mount].isEmpty && literal[mount + 1] == "photos":
                self = method == .POST ? .uploadPhoto(id: rest[mount]) : .unknown
            default:
                self = .unknown
            }
            return
        }
        switch (segments.count, literal.first) {
        case (2, "api") where literal[1] == "health" && isRead:
            self = .health
        case (2, "images") where isRead && !segments[1].isEmpty:
            self = .image(file: segments[1])
        default:
            self = .unknown
        }
    }

    /// Percent-decodes each segment; nil when an escape is malformed (Express answers such paths with 400/404, never a match).
    private static func decode(_ segments: [String]) -> [String]? {
        var out: [String] = []
        out.reserveCapacity(segments.count)
        for segment in segments {
            // Decoding allocates through Foundation; most segments have nothing to decode.
            guard segment.utf8.contains(UInt8(ascii: "%")) else {
                out.append(segment)
                continue
            }
            guard let decoded = segment.removingPercentEncoding else { return nil }
            out.append(decoded)
        }
        return out
    }
}
