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
    /// An announcement route whose path parameter cannot be percent-decoded: 500, as Express's router fails.
    case undecodableParameter

    /// The id of the contract that documents this route, if any (preflights and unknown or undecodable routes have none).
    public var contractID: String? {
        switch self {
        case .health: return "health"
        case .listAnnouncements: return "listAnnouncements"
        case .createAnnouncement: return "createAnnouncement"
        case .getAnnouncement: return "getAnnouncement"
        case .deleteAnnouncement: return "deleteAnnouncement"
        case .uploadPhoto: return "uploadPhoto"
        case .image: return "getImage"
        case .preflight, .unknown, .undecodableParameter: return nil
        }
    }

    /// The contract documenting this route as reached through `path`: a DELETE under the admin mount has its own
    /// (`adminDeleteAnnouncement`), every other route one contract under either mount.
    public func contractID(path: String) -> String? {
        if case .deleteAnnouncement = self, path.utf8.prefix(11).map(ASCIICase.lower).elementsEqual("/api/admin/".utf8) {
            return "adminDeleteAnnouncement"
        }
        return contractID
    }

    /// Whether Express's `res.send` writes the answer (so it gets a weak ETag): everything but the static images and
    /// the CORS preflight.
    var sendsThroughExpress: Bool {
        switch self {
        case .image, .preflight: return false
        default: return true
        }
    }

    /// The route for `method` and the path part of a request target.
    ///
    /// Like Express, literal segments are matched on the raw path (case-insensitively) and only parameters are
    /// percent-decoded, each within its own segment, so an encoded slash (`%2F`) can never reach another route. A
    /// parameter that cannot be decoded fails the whole request when its route's path matches, whatever the method:
    /// Express's `decodeURIComponent` throws and the error handler answers 500.
    public init(method: HTTPMethod, path: String) {
        if method == .OPTIONS {
            self = .preflight
            return
        }
        guard path.hasPrefix("/") else {
            self = .unknown
            return
        }
        // Split on bytes: the server asks for the route three times per request, and Character splitting dominated the profile.
        var raw = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { String(Substring($0)) }
        // Express routing is not strict: one trailing slash is ignored.
        if raw.count > 1, raw.last == "" { raw.removeLast() }
        let isRead = method == .GET || method == .HEAD
        // Express matches literal segments case-insensitively; parameters keep their case.
        let literal = raw.map { $0.lowercased() }
        // The announcements router is mounted at /api/v1/announcements and again at /api/admin/v1/announcements.
        let mount = literal.starts(with: ["api", "v1", "announcements"]) ? 3 : literal.starts(with: ["api", "admin", "v1", "announcements"]) ? 4 : 0
        if mount > 0 {
            let rest = raw.count - mount
            guard rest == 1 || (rest == 2 && literal[mount + 1] == "photos"), !raw[mount].isEmpty else {
                self = rest == 0 ? (isRead ? .listAnnouncements : method == .POST ? .createAnnouncement : .unknown) : .unknown
                return
            }
            guard let id = Self.decode(raw[mount]) else {
                self = .undecodableParameter
                return
            }
            if rest == 1 {
                self = isRead ? .getAnnouncement(id: id) : method == .DELETE ? .deleteAnnouncement(id: id) : .unknown
            } else {
                self = method == .POST ? .uploadPhoto(id: id) : .unknown
            }
            return
        }
        switch (raw.count, literal.first) {
        case (2, "api") where literal[1] == "health" && isRead:
            self = .health
        case (2, "images") where isRead && !raw[1].isEmpty:
            // The static file server treats an undecodable name as a miss and falls through to the 404.
            self = Self.decode(raw[1]).map { .image(file: $0) } ?? .unknown
        default:
            self = .unknown
        }
    }

    /// Percent-decodes one segment like `decodeURIComponent`; nil when an escape is malformed or not UTF-8.
    private static func decode(_ segment: String) -> String? {
        // Decoding allocates through Foundation; most segments have nothing to decode.
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        return segment.removingPercentEncoding
    }
}
