import ContractKit
import Foundation

/// The bundled contracts with every PetSpot name replaced (`createAnnouncement` → `openCase`, `uploadPhoto` →
/// `attachScan`, `getAnnouncement` → `readCase`, `managementPassword` → `casePin`, `/announcements` → `/cases`,
/// `/photos` → `/scans`): another API of the same shape, for tests that the engine follows the data, not the names.
public enum RenamedContracts {
    /// The renamed set, written to a fresh temporary folder and loaded.
    public static func load() throws -> ContractSet {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("spotcheck-renamed-\(UUID().uuidString)", isDirectory: true)
        let source = ContractSet.bundledDirectory
        let renames = [("createAnnouncement", "openCase"), ("uploadPhoto", "attachScan"), ("getAnnouncement", "readCase"),
                       ("managementPassword", "casePin"), ("/announcements", "/cases"), ("/photos", "/scans")]
        try FileManager.default.createDirectory(at: root.appendingPathComponent("schemas"), withIntermediateDirectories: true)
        for folder in ["", "schemas/"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent(folder).path) where name.hasSuffix(".json") {
                var text = try String(contentsOf: source.appendingPathComponent(folder + name), encoding: .utf8)
                for (old, new) in renames { text = text.replacingOccurrences(of: old, with: new) }
                try Data(text.utf8).write(to: root.appendingPathComponent(folder + name))
            }
        }
        return try ContractSet.load(from: root)
    }
}
