
extension RecordStore {
    /// The stored records by id, keeping the running total of what they cost in memory, so the store can be bounded
    /// in bytes without walking 20,000 records on every create.
    ///
    /// Every change goes through the subscript or `removeValue`, so the total cannot drift from the records.
    struct RecordTable: Sequence {
        private var records: [String: Record] = [:]
        /// What the records hold in memory, in bytes (see `Record.footprint`).
        private(set) var bytes = 0

        /// How many records there are.
        var count: Int { records.count }

        subscript(id: String) -> Record? {
            get { records[id] }
            set {
                let old = if let newValue { records.updateValue(newValue, forKey: id) } else { records.removeValue(forKey: id) }
                bytes += (newValue.map { $0.footprint(id: id) } ?? 0) - (old.map { $0.footprint(id: id) } ?? 0)
            }
        }

        /// Takes a record out; nil when there was none.
        @discardableResult
        mutating func removeValue(forKey id: String) -> Record? {
            guard let old = records.removeValue(forKey: id) else { return nil }
            bytes -= old.footprint(id: id)
            return old
        }

        func makeIterator() -> Dictionary<String, Record>.Iterator { records.makeIterator() }
    }
}

extension RecordStore.Record {
    /// The bytes one record keeps alive: its arrays' whole storage (capacity, not count: a grown array keeps its room),
    /// its strings, and the dictionary and index entries around it.
    ///
    /// Measured with `bench/store-bytes.sh`: RSS per stored record tracks this within a few percent (bench/README.md).
    func footprint(id: String) -> Int {
        json.capacity + (photo?.bytes.capacity ?? 0) + secret.utf8.count + id.utf8.count
            + derived.unique.reduce(0) { $0 + $1.utf8.count } + Self.fixedOverhead
    }

    /// The dictionary slot, the list and eviction index entries and the record's own fields, rounded up.
    static let fixedOverhead = 256
}
