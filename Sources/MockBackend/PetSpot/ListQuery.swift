import Foundation

/// The filter of `GET /api/v1/announcements`: an optional centre and a radius in whole kilometres.
public struct ListQuery: Sendable, Equatable {
    /// Centre latitude, when a centre is given.
    public var latitude: Double?
    /// Centre longitude, when a centre is given.
    public var longitude: Double?
    /// Radius in kilometres; 5 unless given (whole, but kept as the double JavaScript compares with).
    public var rangeKm: Double

    /// The default radius in kilometres.
    public static let defaultRangeKm = 5

    /// Parses a query string (without `?`); the error names the bad parameter as 400 INVALID_PARAMETER.
    public static func parse(_ query: String?) -> Result<ListQuery, PetSpotError> {
        var values: [String: [String]] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            values[key, default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        func invalid(_ field: String, _ message: String) -> Result<ListQuery, PetSpotError> {
            .failure(PetSpotError(.badRequest, "INVALID_PARAMETER", message, field: field))
        }
        // Express keeps the first value of a repeated key as an array; the real handler then reads it as text.
        func number(_ name: String) -> Double?? {
            guard let given = values[name]?.first, !given.isEmpty else { return .none }
            return .some(JavaScriptNumber.parseFloat(given))
        }
        let lat = number("lat"), lng = number("lng"), range = number("range")
        for (name, value, limit) in [("lat", lat, 90.0), ("lng", lng, 180.0)] {
            guard case .some(let v) = value else { continue }
            guard let v else { return invalid(name, "Parameter '\(name)' must be a valid number") }
            if abs(v) > limit { return invalid(name, "Parameter '\(name)' must be between -\(Int(limit)) and \(Int(limit))") }
        }
        var rangeKm = Double(defaultRangeKm)
        if case .some(let r) = range {
            guard let r else { return invalid("range", "Parameter 'range' must be a valid number") }
            // zod's `.int()` is `Number.isInteger`: Infinity (parseFloat's "Infinity") is not whole.
            if !r.isFinite || r.rounded() != r { return invalid("range", "Parameter 'range' must be an integer") }
            if r == 0 { return invalid("range", "Parameter 'range' must be greater than zero") }
            if r < 0 { return invalid("range", "Parameter 'range' must be a positive number") }
            rangeKm = r
        }
        let latitude = lat.flatMap { $0 }, longitude = lng.flatMap { $0 }
        if latitude != nil && longitude == nil { return invalid("lng", "Parameter 'lng' is required when 'lat' is provided") }
        if longitude != nil && latitude == nil { return invalid("lat", "Parameter 'lat' is required when 'lng' is provided") }
        return .success(ListQuery(latitude: latitude, longitude: longitude, rangeKm: rangeKm))
    }

    /// Whether an announcement at this position passes the filter: the backend keeps `distance < range`, and a
    /// distance SQLite computes as NULL (NaN) is never less than anything.
    public func includes(latitude lat: Double, longitude lng: Double) -> Bool {
        guard let latitude, let longitude else { return true }
        return GreatCircle.distanceKm(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lng) < rangeKm
    }

    private static func decode(_ s: Substring) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

