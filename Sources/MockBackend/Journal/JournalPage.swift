import ContractModel
import Foundation
import NIOCore

/// One page of `GET /__spotcheck/journal`, encoded: `{"count": N, "entries": [summary, ...], "next": SEQ or null}`.
///
/// Summaries only (no headers, no bodies; those come from `journal/{sequence}`), encoded one at a time and stopped
/// before the byte budget, so a read holds at most the budget plus one summary whatever the journal keeps.
enum JournalPage {
    /// The page `request` asks for, as the admin API's answer body.
    static func encode(_ journal: Journal, _ request: JournalPageRequest) -> ByteBuffer {
        let (count, candidates) = journal.newest(below: request.cursor, limit: request.limit)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let head = #"{"count":\#(count),"entries":["#
        // Room for the longest ending: `],"next":` and a sequence number.
        let tailRoom = 32
        var body = ByteBuffer()
        body.reserveCapacity(min(request.maxBytes, 64 * 1024))
        body.writeString(head)
        var shown = 0
        var lastShown: Int?
        var next: Int?
        for entry in candidates {
            guard let row = try? encoder.encode(JournalEntrySummary(entry)) else { continue }
            let separator = shown == 0 ? 0 : 1
            if shown > 0, body.readableBytes + separator + row.count + tailRoom > request.maxBytes {
                // Something is left: the next page starts below the last entry shown.
                next = lastShown
                break
            }
            if separator == 1 { body.writeString(",") }
            body.writeBytes(row)
            shown += 1
            lastShown = entry.sequence
        }
        if next == nil, let lastShown, journal.hasEntry(below: lastShown) {
            // The count limit ended the page, not the journal.
            next = lastShown
        }
        body.writeString(#"],"next":\#(next.map(String.init) ?? "null")}"#)
        return body
    }
}
