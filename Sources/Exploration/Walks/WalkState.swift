import ContractKit
import ContractModel

/// What a walk knows of its records, as the model answered: each step's next choice is made from it.
struct WalkState: Sendable {
    /// One record a create step tried to make.
    struct Record: Sendable {
        /// The create step that made it (its name).
        let name: Int
        /// Its collection.
        let collection: String
        /// The body the create sent (the unique values as sent, the secret a client chose).
        let body: JSONObject
        /// Whether the model created it.
        var created = false
        /// Whether the model deleted it since.
        var deleted = false
        /// Whether the model took a file for it.
        var hasFile = false
        /// Its slot on the sides (created on every side), or nil (refused somewhere, or never sent).
        var slot: Int?
    }

    /// The records, in creation order.
    private(set) var records: [Record] = []

    /// The record a step named `name` created, if that step ran.
    func record(_ name: Int) -> Record? { records.first { $0.name == name } }

    /// Records of `collection`.
    func records(in collection: String) -> [Record] { records.filter { $0.collection == collection } }

    mutating func add(_ record: Record) { records.append(record) }

    mutating func update(_ name: Int, _ change: (inout Record) -> Void) {
        guard let index = records.firstIndex(where: { $0.name == name }) else { return }
        change(&records[index])
    }
}
