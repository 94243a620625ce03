import Foundation

/// Great-circle distances on a spherical Earth, computed exactly as the real backend's list filter does in SQLite.
public enum GreatCircle {
    /// The mean Earth radius in kilometres the filter uses.
    public static let earthRadiusKm = 6371.0

    /// The spherical law of cosines in kilometres between two points given in degrees, or NaN where it is undefined.
    ///
    /// The backend's SQL is `6371 * acos(cos(radians(lat)) * cos(radians(la)) * cos(radians(lo) - radians(lng)) +
    /// sin(radians(lat)) * sin(radians(la)))`, evaluated left to right with SQLite's `radians` (`x * (π / 180)`). For
    /// two equal points the argument can round to just above 1, `acos` is NaN and SQLite makes it NULL, so the row is
    /// left out of the list: the operations are kept in that order so the model rounds the same way.
    public static func distanceKm(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180.0) }
        let product = cos(radians(latitude1)) * cos(radians(latitude2)) * cos(radians(longitude2) - radians(longitude1))
        let argument = product + sin(radians(latitude1)) * sin(radians(latitude2))
        return earthRadiusKm * acos(argument)
    }
}
