import ContractKit
import Foundation

/// The query of a session's list reads (petspot-api `GET /api/v1/announcements`: `lat` and `lng` together, `range` in
/// km, default 5), and which announcements it lists.
public struct ListQuery: Sendable, Equatable, Hashable {
    /// The point's latitude.
    public var lat: Double
    /// The point's longitude.
    public var lng: Double
    /// The range in km; `nil` leaves it to the server's default.
    public var range: Int?

    /// The server's range when the query gives none.
    public static let defaultRange = 5.0

    /// A query around `lat`, `lng` within `range` km.
    public init(lat: Double, lng: Double, range: Int?) {
        self.lat = lat
        self.lng = lng
        self.range = range
    }

    /// The query as a scenario's `list` step writes it.
    public var json: JSONValue {
        var o: JSONObject = ["lat": .number(lat), "lng": .number(lng)]
        if let range { o["range"] = .number(Double(range)) }
        return .object(o)
    }

    /// Whether an announcement at `latitude`, `longitude` is listed: great-circle distance (Earth radius 6371 km) below
    /// the range, as petspot-api states. The explorer's points are never near the range's edge, so rounding cannot decide.
    public func lists(latitude: Double, longitude: Double) -> Bool {
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let cosine = cos(radians(lat)) * cos(radians(latitude)) * cos(radians(longitude) - radians(lng)) + sin(radians(lat)) * sin(radians(latitude))
        let distance = 6371 * acos(min(1, max(-1, cosine)))
        return distance < (range.map(Double.init) ?? Self.defaultRange)
    }

    /// The classes of a list query: each coordinate 0, a range that leaves a near announcement out, none (the
    /// default 5 km), and a negative longitude. Points lie about 1.1 or 2.2 km from the stored announcements, or far away.
    public static func classes(near latitude: Double, _ longitude: Double) -> [(name: String, query: ListQuery)] {
        [
            ("latitude 0", ListQuery(lat: 0, lng: longitude, range: 5)),
            ("longitude 0", ListQuery(lat: latitude, lng: 0, range: 5)),
            ("both 0", ListQuery(lat: 0, lng: 0, range: 5)),
            ("range 1 km, announcement 2.2 km away", ListQuery(lat: latitude + 0.02, lng: longitude, range: 1)),
            ("no range (5 km), announcement 2.2 km away", ListQuery(lat: latitude + 0.02, lng: longitude, range: nil)),
            ("range 3 km, announcement 1.1 km away", ListQuery(lat: latitude - 0.01, lng: longitude, range: 3)),
            ("negative longitude", ListQuery(lat: latitude, lng: -longitude, range: 5)),
        ]
    }
}
