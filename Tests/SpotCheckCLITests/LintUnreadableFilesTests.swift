import Foundation
import Testing
@testable import MockCommands
@testable import spotcheck

/// `spotcheck lint` fails (exit 2) on an entry named like a contract file that it cannot read, naming the entry, rather
/// than passing with the contract silently missing.
@Suite struct LintUnreadableFilesTests {
    /// A scratch copy of the bundled contracts, removed by `remove()`.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lint-unreadable-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.copyItem(at: LintCommandTests.repository.appendingPathComponent("contracts"), to: url)
        }

        func remove() {
            chmod(url.appendingPathComponent("schemas").path, 0o755)
            try? FileManager.default.removeItem(at: url)
        }

        func lint() -> CommandOutcome { LintCommand.execute(directory: url.path) }
    }

    @Test func aSymlinkLoopIsAProblem() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("loop.json").path, withDestinationPath: "loop.json")
        let outcome = folder.lint()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.split(separator: "\n").contains { $0.contains("loop.json") && $0.contains("a loop of links") && !$0.hasPrefix("warning") })
    }

    @Test func aFolderNamedLikeAContractIsAProblem() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("extra.json"), withIntermediateDirectories: false)
        let outcome = folder.lint()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("extra.json"))
        #expect(outcome.output.contains("a folder named like a contract file"))
    }

    @Test func aSchemasFolderThatIsALinkLoopIsAProblem() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let schemas = folder.url.appendingPathComponent("schemas")
        try FileManager.default.removeItem(at: schemas)
        try FileManager.default.createSymbolicLink(atPath: schemas.path, withDestinationPath: "schemas")
        let outcome = folder.lint()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("/schemas:(root): skipped: a symbolic link to \"schemas\" that leads to no folder (missing, or a loop of links)"))
    }

    /// Root reads every file whatever its mode, so this runs only as another user.
    @Test(.enabled(if: getuid() != 0)) func aFileWithoutReadPermissionIsAProblemSayingSo() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("health.json")
        chmod(file.path, 0o000)
        let outcome = folder.lint()
        #expect(outcome.exitCode == 2)
        #expect(outcome.output.contains("health.json"))
        #expect(outcome.output.contains("the file cannot be read: permission denied"))
    }
}
