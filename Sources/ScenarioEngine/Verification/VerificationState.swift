import ContractKit
import Foundation

/// What earlier checks of a verification captured for later ones: the record this run created.
struct VerificationState: Sendable {
    /// The created record's key (its id).
    var id: String?
    /// Its secret (the create's first `x-state.secret` field), which opens it for Basic credentials.
    var secret: String?
    /// The name of that field, so a check that cannot open the record says which value it lacked.
    var secretField: String?
    /// This run's own values for the fields the contracts declare unique.
    var unique: UniqueStandIns
    /// The stored file's name under its published address, once a read showed it.
    var photoFile: String?
    /// Whether a file was attached to the created record (an `attach-file` success on its id): only then may a read be
    /// held to the address the declaration publishes, and a list to show the record its `where` needs a file for.
    var fileAttached = false
    /// Every record id this run created, so the report can say what it left behind.
    var createdIDs: [String] = []
    /// What the server's answers gave for parameters no example names (lists, `Location`, links, creates).
    var values = ServerValues()

    init(unique: UniqueStandIns) {
        self.unique = unique
    }
}
