extension RecordStore {
    /// One collection's records and the indexes over them.
    struct Table {
        var records = RecordTable()
        /// The listed records by creation sequence, oldest first, the order lists show (petspot-api.md: "in creation
        /// order"). Kept apart so a list never walks unlisted records.
        var listed: [(sequence: Int, id: String)] = []
        /// The values in use of each unique field (by the field's index in the layout's `unique`), so the uniqueness
        /// check stays O(1) however many records there are. Only non-empty values take part.
        var taken: [Set<String>] = []

        /// Where `sequence` is, or belongs, in `listed`.
        func listedIndex(_ sequence: Int) -> Int {
            var (low, high) = (0, listed.count)
            while low < high {
                let mid = (low + high) / 2
                if listed[mid].sequence < sequence { low = mid + 1 } else { high = mid }
            }
            return low
        }

        mutating func list(_ id: String, sequence: Int) {
            let i = listedIndex(sequence)
            if i < listed.count, listed[i].sequence == sequence { return }
            listed.insert((sequence, id), at: i)
        }

        mutating func unlist(sequence: Int) {
            let i = listedIndex(sequence)
            if i < listed.count, listed[i].sequence == sequence { listed.remove(at: i) }
        }

        /// Lists or unlists `record` after a change to its fields.
        mutating func relist(_ id: String, record: Record) {
            if record.derived.listed { list(id, sequence: record.sequence) } else { unlist(sequence: record.sequence) }
        }

        mutating func insert(_ record: Record, id: String) {
            records[id] = record
            if record.derived.listed { list(id, sequence: record.sequence) }
            for (i, value) in record.derived.unique.enumerated() where !value.isEmpty {
                while taken.count <= i { taken.append([]) }
                taken[i].insert(value)
            }
        }

        /// Takes a record out of every index; answers it, nil when there was none.
        @discardableResult
        mutating func remove(_ id: String) -> Record? {
            guard let removed = records.removeValue(forKey: id) else { return nil }
            unlist(sequence: removed.sequence)
            for (i, value) in removed.derived.unique.enumerated() where !value.isEmpty && i < taken.count { taken[i].remove(value) }
            return removed
        }
    }

    struct State {
        var tables: [Table]
        var nextSequence = 0
        /// The most bytes the records may hold (see `Record.footprint`); nil bounds nothing. Set after start and replay.
        var maxBytes: Int?
        /// Records created through the API, oldest first from `createdHead`: the eviction order under a bound, across
        /// every collection.
        var created: [(collection: Int, sequence: Int, id: String)] = []
        var createdHead = 0
        /// How many records the bounds have evicted.
        var evicted = 0
        var random: ModelRandom

        init(random: ModelRandom, collections: Int) {
            self.random = random
            tables = Array(repeating: Table(), count: collections)
        }

        /// What every collection's records hold in memory, in bytes.
        var bytes: Int { tables.reduce(0) { $0 + $1.records.bytes } }

        /// How many records every collection holds.
        var count: Int { tables.reduce(0) { $0 + $1.records.count } }

        /// The state right after start (or a reset): the fixtures only, drawing from `random`.
        static func start(random: ModelRandom, collections: Int, initial: [(collection: Int, id: String, record: Record)]) -> Self {
            var s = Self(random: random, collections: collections)
            for (c, id, record) in initial { s.insert(record, id: id, in: c) }
            return s
        }

        mutating func insert(_ record: Record, id: String, in c: Int) {
            var record = record
            record.sequence = nextSequence
            nextSequence += 1
            tables[c].insert(record, id: id)
        }

        /// The first unique field of `layout` whose value in `record` another record holds; nil when none clashes.
        /// The key field is looked up as a key, the others in their index.
        func taken(_ record: Record, key: String, layout: RecordLayout) -> String? {
            let table = tables[layout.index]
            for (i, field) in layout.unique.enumerated() {
                if field == layout.keyField {
                    if !key.isEmpty, table.records[key] != nil { return field }
                } else if let value = record.derived.unique(i), i < table.taken.count, table.taken[i].contains(value) {
                    return field
                }
            }
            return nil
        }

        /// Drops the oldest live records created through the API until at most `limit` remain and the records fit
        /// `maxBytes`; fixtures stay, and so do the newest created record and `sparing` (one just given a file), so a
        /// 201 is never followed by its own eviction.
        mutating func evict(toKeep limit: Int?, sparing: (collection: Int, id: String)? = nil) {
            while createdHead < created.count {
                let live = created.count - createdHead
                let overCount = limit.map { live > $0 } ?? false
                let overBytes = maxBytes.map { bytes > $0 && live > 1 } ?? false
                guard overCount || overBytes else { break }
                let (c, sequence, id) = created[createdHead]
                if !overCount, let sparing, sparing.collection == c, sparing.id == id { break }
                createdHead += 1
                // A deleted record leaves its entry behind; only a live record with the same sequence is evicted.
                if let record = tables[c].records[id], record.sequence == sequence {
                    tables[c].remove(id)
                    evicted += 1
                }
            }
            // Compact now and then so the consumed head does not grow for ever.
            if createdHead > 1024, createdHead * 2 > created.count {
                created.removeFirst(createdHead)
                createdHead = 0
            }
        }
    }
}
