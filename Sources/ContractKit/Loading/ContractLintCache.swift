import Foundation

/// Remembers which contracts folders, by the hash of their content, loaded lint-clean, so `serve` does not lint the
/// same contracts at every start (issue 23). An entry is one small file named after the hash; it vouches only for
/// exactly that content checked by exactly this build. A missing, changed or damaged entry means a full load and lint.
public struct ContractLintCache: Sendable {
    /// The folder holding the entries.
    public let folder: URL
    /// Who checked: an entry written by another build (other lint rules) does not count.
    let buildIdentity: String

    /// Bumped when the entry's format or what it vouches for changes.
    static let formatVersion = "spotcheck-lint-cache 1"

    /// A cache in `folder`, vouching for this executable's checks.
    public init(folder: URL) {
        self.init(folder: folder, buildIdentity: Self.executableIdentity())
    }

    init(folder: URL, buildIdentity: String) {
        self.folder = folder
        self.buildIdentity = buildIdentity
    }

    /// `$SPOTCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/spotcheck`, else `~/.cache/spotcheck`; nil when
    /// `SPOTCHECK_CACHE_DIR` is `off` (every start lints) or no folder can be named.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ContractLintCache? {
        if let explicit = environment["SPOTCHECK_CACHE_DIR"], !explicit.isEmpty {
            return explicit == "off" ? nil : ContractLintCache(folder: URL(fileURLWithPath: explicit))
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return ContractLintCache(folder: URL(fileURLWithPath: xdg).appendingPathComponent("spotcheck"))
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return ContractLintCache(folder: URL(fileURLWithPath: home).appendingPathComponent(".cache/spotcheck"))
    }

    /// The entry file for a content hash.
    func entryURL(_ hash: String) -> URL {
        folder.appendingPathComponent("contracts-\(hash).lint-clean")
    }

    /// The exact text an entry for `hash` holds; anything else in the file is a damaged entry.
    func entryText(_ hash: String) -> String {
        "\(Self.formatVersion)\ncontent \(hash)\nbuild \(buildIdentity)\n"
    }

    /// Whether this content was loaded lint-clean by this build before.
    public func vouches(for hash: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: entryURL(hash).path) else { return false }
        return data == Data(entryText(hash).utf8)
    }

    /// Records that this content loaded lint-clean; a cache that cannot be written is only slower, never an error.
    public func record(_ hash: String) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written whole then renamed, so a concurrent start never reads half an entry.
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try Data(entryText(hash).utf8).write(to: temporary)
            _ = try? FileManager.default.removeItem(at: entryURL(hash))
            try FileManager.default.moveItem(at: temporary, to: entryURL(hash))
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// The running executable's size and modification time: a rebuilt binary may lint differently.
    static func executableIdentity() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? "?"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path) \(size) \(String(format: "%.6f", modified))"
    }
}
