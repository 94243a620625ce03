import ContractModel
import Foundation

/// The bounded request journal: a ring that keeps the newest `limit` entries.
public final class Journal: Sendable {
    private struct State {
        var entries: [JournalEntry] = []
        var start = 0
        var nextSequence = 1
    }

    /// The most entries kept; older ones are dropped first.
    public let limit: Int
    private let state = Locked(State())
    /// Live delivery of every recorded entry (the admin event stream).
    public let stream = JournalStream()

    /// Creates an empty journal keeping at most `limit` entries (at least 1).
    public init(limit: Int = 1000) {
        self.limit = max(1, limit)
    }

    /// The kept entries, oldest first.
    public func entries() -> [JournalEntry] {
        state.withLock { s in
            Array(s.entries[s.start...] + s.entries[..<s.start])
        }
    }

    /// Forgets every entry; sequence numbers keep counting so old and new entries never share one.
    public func clear() {
        state.withLock { s in
            s.entries.removeAll()
            s.start = 0
        }
    }

    /// Records an entry, assigning its sequence number, and returns it as stored.
    @discardableResult
    public func record(_ entry: JournalEntry) -> JournalEntry {
        let stored = store(entry)
        stream.publish(stored)
        return stored
    }

    /// The entry with this sequence number, while the ring still keeps it.
    public func entry(sequence: Int) -> JournalEntry? {
        state.withLock { s in s.entries.first { $0.sequence == sequence } }
    }

    /// The total kept, and up to `limit` kept entries newest first, only those with a sequence below `cursor` when one is given.
    ///
    /// Only the chosen entries are copied (their bodies are shared, not duplicated), so a page costs what it shows.
    func newest(below cursor: Int?, limit: Int) -> (count: Int, entries: [JournalEntry]) {
        state.withLock { s in
            var chosen: [JournalEntry] = []
            let count = s.entries.count
            var offset = count - 1
            while offset >= 0, chosen.count < limit {
                let entry = s.entries[(s.start + offset) % count]
                if cursor.map({ entry.sequence < $0 }) ?? true { chosen.append(entry) }
                offset -= 1
            }
            return (count, chosen)
        }
    }

    /// Whether an entry older than `sequence` is still kept.
    func hasEntry(below sequence: Int) -> Bool {
        state.withLock { s in
            s.entries.isEmpty ? false : s.entries[s.start].sequence < sequence
        }
    }

    private func store(_ entry: JournalEntry) -> JournalEntry {
        state.withLock { s in
            var e = entry
            e.sequence = s.nextSequence
            s.nextSequence += 1
            if s.entries.count < limit {
                s.entries.append(e)
            } else {
                s.entries[s.start] = e
                s.start = (s.start + 1) % limit
            }
            return e
        }
    }

}
