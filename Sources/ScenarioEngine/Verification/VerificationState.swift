import Foundation

/// What earlier checks of a verification captured for later ones: the announcement this run created.
struct VerificationState: Sendable {
    /// The created announcement's id.
    var id: String?
    /// Its management password.
    var managementPassword: String?
    /// The microchip number this run registered (unique per run).
    var microchip: String
    /// Where the announcement was reported, for the list query.
    var latitude: Double?
    var longitude: Double?
    /// The stored photo's file name under `/images/`, once a read showed it.
    var photoFile: String?
    /// Every announcement id this run created, so the report can say what it left behind.
    var createdIDs: [String] = []

    init(microchip: String) {
        self.microchip = microchip
    }

    /// A microchip number made only of digits, unlikely to collide with anything on a shared server.
    static func freshMicrochip() -> String {
        var digits = "9"
        for _ in 0..<14 { digits += String(Int.random(in: 0...9)) }
        return digits
    }
}
