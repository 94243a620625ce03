import ContractKit

/// A small in-memory collection of JSON records by stored key, for collections the contracts declare besides the
/// announcements (fb9f56a's users). It has no data directory and no bounds: it lives as long as the process (or the
/// next reset), like the rest of a mock's session state.
struct RecordCollection: Sendable {
    /// The records by stored key, in no order.
    private(set) var records: [String: JSONObject] = [:]
    /// Values of unique fields other than the key, by field: the uniqueness check stays O(1).
    private var taken: [String: Set<String>] = [:]

    /// The record stored under `key`.
    func record(key: String) -> JSONObject? { records[key] }

    /// Whether `value` of `field` is taken; the key field is looked up as a key, others as stored.
    func isTaken(field: String, value: String, keyField: String?, storedKey: String) -> Bool {
        field == keyField ? records[storedKey] != nil : taken[field]?.contains(value) == true
    }

    /// Stores `record` under `key`, recording its non-empty string values of `unique` fields.
    mutating func insert(_ record: JSONObject, key: String, unique: [String]) {
        records[key] = record
        for field in unique {
            if let value = record[field]?.stringValue, !value.isEmpty { taken[field, default: []].insert(value) }
        }
    }
}
