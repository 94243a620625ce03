import Foundation
import Testing

@testable import ContractKit

/// Entries named like contract files that cannot be one (a folder, a looping or dangling symlink) are warned about,
/// not skipped silently; the contracts that are files still load.
@Suite struct ContractFolderWarningsTests {
    @Test func aFolderNamedJSONAndASymlinkLoopAreWarnedAbout() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        let manager = FileManager.default
        try manager.createDirectory(at: copy.url.appendingPathComponent("extra.json"), withIntermediateDirectories: false)
        try manager.createSymbolicLink(atPath: copy.url.appendingPathComponent("loop-a.json").path, withDestinationPath: "loop-b.json")
        try manager.createSymbolicLink(atPath: copy.url.appendingPathComponent("loop-b.json").path, withDestinationPath: "loop-a.json")
        try manager.createSymbolicLink(atPath: copy.url.appendingPathComponent("schemas/gone.json").path, withDestinationPath: "/nonexistent/x.json")
        let set = try copy.load()
        let clean = try ContractSet.load(from: ContractSet.bundledDirectory)
        #expect(set.contracts.map(\.id) == clean.contracts.map(\.id))
        let messages = set.warnings.map(\.description)
        #expect(set.warnings.count == 4)
        #expect(messages.contains { $0.contains("extra.json") && $0.contains("a folder named like a contract file") })
        #expect(messages.contains { $0.contains("loop-a.json") && $0.contains("loop of links") })
        #expect(messages.contains { $0.contains("loop-b.json") })
        #expect(messages.contains { $0.contains("schemas/gone.json") && $0.contains("/nonexistent/x.json") })
        #expect(ContractSet.warnings(directory: copy.url) == set.warnings)
        #expect(clean.warnings.isEmpty)
    }
}
