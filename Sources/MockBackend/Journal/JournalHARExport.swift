import ContractKit
import ContractModel
import Foundation
import HTTPArchive

/// The journal as one HAR document, with a byte bound so an export never holds more than `byteLimit` of text.
///
/// Entries are taken oldest first until the next would pass the bound; the document then says in `log.comment`
/// where to continue (`?since=`), so a full journal is exported in a few bounded pieces instead of one huge one.
public enum JournalHARExport {
    /// The document, and the sequence to continue after when entries were left out.
    public struct Result: Sendable {
        /// The HAR text.
        public var text: String
        /// How many entries it holds.
        public var count: Int
        /// The last sequence exported when later entries were left out for the bound; nil when all were taken.
        public var continueAfter: Int?
    }

    /// Writes the entries `filter` accepts; at least one entry is always written, however big, so paging makes progress.
    /// `secrets` names what is redacted in every entry; nil keeps every secret, and the HAR's `creator.comment` says so.
    public static func text(_ entries: [JournalEntry], filter: JournalHARFilter, origin: String, byteLimit: Int,
                            secrets: SecretNames? = SecretNames()) -> Result {
        var body = ""
        var count = 0
        var continueAfter: Int?
        var lastTaken: Int?
        for entry in entries where filter.accepts(entry) {
            let text = HARWriter.text(JournalHAR.entry(secrets.map { entry.redactingSecrets($0) } ?? entry, origin: origin))
            if count > 0, body.utf8.count + text.utf8.count > byteLimit {
                continueAfter = lastTaken
                break
            }
            if count > 0 { body += HARWriter.separator }
            body += text
            count += 1
            lastTaken = entry.sequence
        }
        let comment = continueAfter.map {
            "Cut at \(byteLimit) bytes after journal entry \($0); the rest: the same request with since=\($0)."
        }
        return Result(text: HARWriter.opening(.spotCheck(keptSecrets: secrets == nil)) + body + HARWriter.closing(comment: comment), count: count, continueAfter: continueAfter)
    }
}
