import Foundation

/// The filter of `GET /api/v1/announcements`: an optional centre and a radius in whole kilometres.
public struct ListQuery: Sendable, Equatable {
    /// Centre latitude, when a centre is given.
    public var latitude: Double?
    /// Centre longitude, when a centre is given.
    public var longitude: Double?
    /// Radius in kilometres; 5 unless given.
    public var rangeKm: Int

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
        func coordinate(_ name: String, limit: Double) -> Result<Double?, PetSpotError> {
            guard let given = values[name] else { return .success(nil) }
            guard given.count == 1, let value = Double(given[0].trimmingWhitespace), value.isFinite, abs(value) <= limit else {
                return .failure(PetSpotError(.badRequest, "INVALID_PARAMETER", "\(name) must be a number between \(-Int(limit)) and \(Int(limit))", field: name))
            }
            return .success(value)
        }
        let latitude: Double?
        let longitude: Double?
        switch coordinate("lat", limit: 90) {
        case .failure(let e): return .failure(e)
        case .success(let v): latitude = v
        }
        switch coordinate("lng", limit: 180) {
        case .failure(let e): return .failure(e)
        case .success(let v): longitude = v
        }
        if latitude != nil && longitude == nil { return invalid("lng", "lng is required when lat is given") }
        if longitude != nil && latitude == nil { return invalid("lat", "lat is required when lng is given") }
        var range = defaultRangeKm
        if let given = values["range"] {
            guard given.count == 1, !given[0].isEmpty, given[0].allSatisfy(\.isASCIIDigit), let r = Int(given[0]), r > 0 else {
                return invalid("range", "range must be a positive whole number of kilometres")
            }
            range = r
        }
        return .success(ListQuery(latitude: latitude, longitude: longitude, rangeKm: range))
    }

    /// Whether an announcement at this position passes the filter.
    public func includes(latitude lat: Double, longitude lng: Double) -> Bool {
        guard let latitude, let longitude else { return true }
        return GreatCircle.distanceKm(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lng) <= Double(rangeKm)
    }

    private static func decode(_ s: Substring) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    fileprivate var trimmingWhitespace: String { trimmingCharacters(in: .whitespaces) }
}
