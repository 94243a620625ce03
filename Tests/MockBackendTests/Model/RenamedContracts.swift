import ContractKit
import Foundation

/// The bundled contracts with every PetSpot name in their JSON replaced, in a throw-away folder: a made-up API whose
/// collection is `parcels`, whose create hands out a `pin` and whose attach-file publishes a `labelUrl` under
/// `/labels/`, the location in `north` and `east`. What the engine does with it shows which behaviour follows the
/// contracts' data and which is written in Swift.
struct RenamedContracts {
    /// Old name → new name, longest first where one holds another.
    static let renames: [(String, String)] = [
        ("listAnnouncements", "listParcels"), ("createAnnouncement", "registerParcel"), ("getAnnouncement", "getParcel"),
        ("deleteAnnouncement", "dropParcel"), ("uploadPhoto", "attachLabel"), ("announcements", "parcels"),
        ("managementPassword", "pin"), ("photoUrl", "labelUrl"), ("/images", "/labels"), ("locationLatitude", "north"),
        ("locationLongitude", "east"),
    ]

    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("renamed-contracts-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: ContractSet.bundledDirectory, to: url)
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "json" else { continue }
            var text = try String(contentsOf: file, encoding: .utf8)
            for (old, new) in Self.renames { text = text.replacingOccurrences(of: old, with: new) }
            try Data(text.utf8).write(to: file)
        }
    }

    func load() throws -> ContractSet { try ContractSet.load(from: url) }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// A valid create body of the renamed contracts.
    static func createBody() -> JSONValue {
        ["petName": "Rex", "species": "DOG", "sex": "MALE", "north": 52.2297, "east": 21.0122, "phone": "+48 123 456 789",
         "lastSeenDate": "2025-11-18", "status": "MISSING"]
    }
}
