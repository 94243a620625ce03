import Foundation

/// What earlier checks of a verification captured for later ones: the announcement this run created.
struct VerificationState: Sendable {
    /// The created announcement's id.
    var id: String?
    /// Its management password.
    var managementPassword: String?
    /// This run's own values for the fields the contracts declare unique.
    var unique: UniqueStandIns
    /// Where the announcement was reported, for the list query.
    var latitude: Double?
    var longitude: Double?
    /// The stored photo's file name under `/images/`, once a read showed it.
    var photoFile: String?
    /// Every announcement id this run created, so the report can say what it left behind.
    var createdIDs: [String] = []

    init(unique: UniqueStandIns) {
        self.unique = unique
    }
}
