import ContractKit
import Foundation

/// The filter of a list (`x-state.list.filter`, `great-circle-sqlite`): an optional centre and a radius in kilometres, read from the query values the
/// contract's rules parsed (`x-filter-input` names which parameter feeds which input, `default` fills the radius).
public struct ListQuery: Sendable, Equatable {
    /// Centre latitude, when a centre is given.
    public var latitude: Double?
    /// Centre longitude, when a centre is given.
    public var longitude: Double?
    /// Radius in kilometres (whole, but kept as the double JavaScript compares with); infinite when the contract names none.
    public var rangeKm: Double

    /// Whether a record at this position passes the filter: the backend keeps `distance < range`, and a
    /// distance SQLite computes as NULL (NaN) is never less than anything.
    public func includes(latitude lat: Double, longitude lng: Double) -> Bool {
        guard let latitude, let longitude else { return true }
        return GreatCircle.distanceKm(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lng) < rangeKm
    }
}

extension ListQuery {
    /// The filter for `values` (by parameter name, defaults filled in), the parameters chosen by `rules`' filter inputs.
    public init(values: [String: JSONValue], rules: QueryRules?) {
        func input(_ name: String) -> Double? {
            rules?.parameter(feeding: name).flatMap { values[$0.name]?.numberValue }
        }
        self.init(latitude: input("latitude"), longitude: input("longitude"), rangeKm: input("range") ?? .infinity)
    }
}
