import ContractModel
import Foundation

/// One journal entry as a server-sent event: `id`, `event: entry` and its summary (never its bodies) as `data`.
///
/// Encoded once when the entry is recorded, whatever the number of readers, and kept as bytes so a reader's
/// buffer is measured in what it will actually send.
public struct JournalEventFrame: Sendable, Equatable {
    /// The entry's sequence number (the event's `id`).
    public let sequence: Int
    /// The event's bytes, ending with the blank line that closes it.
    public let bytes: [UInt8]

    /// The frame of an entry's summary.
    public init(_ entry: JournalEntry) {
        sequence = entry.sequence
        var text = Array("id: \(entry.sequence)\nevent: entry\ndata: ".utf8)
        // The summary holds strings and numbers only; encoding it cannot fail.
        text += (try? JSONEncoder().encode(JournalEntrySummary(entry))).map(Array.init) ?? Array("{}".utf8)
        text += Array("\n\n".utf8)
        bytes = text
    }
}
