import Foundation

/// Great-circle distances on a spherical Earth, as the real backend's list filter computes them.
public enum GreatCircle {
    /// The mean Earth radius in kilometres used by the haversine formula.
    public static let earthRadiusKm = 6371.0

    /// The haversine distance in kilometres between two points given in degrees.
    public static func distanceKm(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * toRadians
        let dLon = (longitude2 - longitude1) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude1 * toRadians) * cos(latitude2 * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }
}
