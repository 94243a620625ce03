import ContractKit
import ContractModel
import Foundation
import HTTPArchive

/// Writes every exchange to a HAR file as it happens (`proxy --record-har FILE`), keeping the file a complete HAR
/// document after each one: the closing brackets are rewritten behind each new entry, so Ctrl-C, TERM or even a
/// kill -9 loses at most the exchange being written, never what was recorded before.
public final class HARFileRecorder: Sendable {
    private struct State {
        var handle: FileHandle?
        var count = 0
        var errors: [String] = []
    }

    /// The file written.
    public let file: URL
    private let origin: String
    private let secrets: SecretNames?
    private let state: Locked<State>
    private static let closing = Array(HARWriter.closing().utf8)

    /// Creates (or empties) `file` with an archive of no entries; `origin` prefixes each path in the entries' URLs;
    /// `secrets` names what each entry has redacted (nil keeps every secret, and `creator.comment` says so).
    /// Refuses a symlink at `file` rather than write through it.
    public init(file: URL, origin: String, secrets: SecretNames? = SecretNames()) throws {
        self.file = file
        self.origin = origin
        self.secrets = secrets
        let handle = try SafeFileWrite.open(file.path, append: false)
        try handle.write(contentsOf: Data((HARWriter.opening(.spotCheck(keptSecrets: secrets == nil)) + HARWriter.closing()).utf8))
        state = Locked(State(handle: handle))
    }

    /// Problems writing so far, for the run's end.
    public var errors: [String] { state.withLock { $0.errors } }

    /// How many entries the file holds.
    public var count: Int { state.withLock { $0.count } }

    /// Appends `entry` and closes the document again behind it.
    public func record(_ entry: JournalEntry) {
        let text = HARWriter.text(JournalHAR.entry(secrets.map { entry.redactingSecrets($0) } ?? entry, origin: origin))
        state.withLock { s in
            guard let handle = s.handle else { return }
            do {
                let end = try handle.seekToEnd()
                try handle.seek(toOffset: end - UInt64(Self.closing.count))
                let lead = s.count == 0 ? "" : HARWriter.separator
                try handle.write(contentsOf: Data((lead + text).utf8) + Data(Self.closing))
                s.count += 1
            } catch {
                s.errors.append("could not write \(file.path): \(FileErrorText.reason(error))")
                s.handle = nil
            }
        }
    }

    /// Flushes and closes the file.
    public func close() {
        state.withLock { s in
            try? s.handle?.synchronize()
            try? s.handle?.close()
            s.handle = nil
        }
    }
}
