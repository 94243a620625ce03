import Foundation
import Testing

@testable import ContractKit

/// `FileTransaction`: every staged file or none, a failure rolled back, a killed run rolled back by the next.
@Suite struct FileTransactionTests {
    struct Root {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-tx-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func remove() { try? FileManager.default.removeItem(at: url) }
        func write(_ path: String, _ text: String) throws {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        func read(_ path: String) -> String? {
            FileManager.default.contents(atPath: url.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
        }
        var staging: URL { url.appendingPathComponent(FileTransaction.stagingName) }
    }

    @Test func aCommitWritesEveryStagedFileAndLeavesNoStaging() throws {
        let root = try Root()
        defer { root.remove() }
        try root.write("contracts/a.json", "old")
        let transaction = try FileTransaction(root: root.url)
        try transaction.stage("contracts/a.json", Data("new".utf8), replacing: true)
        try transaction.stage("scenarios/fixtures/b.json", Data("b".utf8))
        let written = try transaction.commit()
        #expect(written.map(\.lastPathComponent) == ["a.json", "b.json"])
        #expect(root.read("contracts/a.json") == "new" && root.read("scenarios/fixtures/b.json") == "b")
        #expect(!FileManager.default.fileExists(atPath: root.staging.path))
    }

    @Test func anythingAtANewFilesNameRefusesTheCommitBeforeAnyMoveADanglingSymlinkIncluded() throws {
        let root = try Root()
        defer { root.remove() }
        try root.write("contracts/a.json", "old")
        try FileManager.default.createDirectory(at: root.url.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.url.appendingPathComponent("scenarios/s.json").path, withDestinationPath: "/nonexistent")
        let transaction = try FileTransaction(root: root.url)
        try transaction.stage("contracts/a.json", Data("new".utf8), replacing: true)
        try transaction.stage("scenarios/s.json", Data("s".utf8))
        do {
            try transaction.commit()
            Issue.record("the commit went through a symlink")
        } catch {
            #expect(error.reason.contains("symlink"))
            #expect(error.rolledBack.isEmpty)
        }
        #expect(root.read("contracts/a.json") == "old")
    }

    @Test func aMoveThatFailsRollsBackTheFilesAlreadyMovedRestoringWhatTheyReplaced() throws {
        let root = try Root()
        defer { root.remove() }
        try root.write("contracts/a.json", "old")
        let transaction = try FileTransaction(root: root.url)
        try transaction.stage("contracts/a.json", Data("new".utf8), replacing: true)
        try transaction.stage("scenarios/new.json", Data("n".utf8))
        try transaction.stage("scenarios/z.json", Data("z".utf8))
        transaction.failingMove = 2
        do {
            try transaction.commit()
            Issue.record("the failing move went through")
        } catch {
            #expect(error.rolledBack.count == 2, "\(error)")
            #expect(!error.isPartial)
        }
        #expect(root.read("contracts/a.json") == "old")
        #expect(root.read("scenarios/new.json") == nil)
        #expect(!FileManager.default.fileExists(atPath: root.staging.path))
    }

    @Test func aTransactionKilledMidCommitIsRolledBackByTheNextOne() throws {
        let root = try Root()
        defer { root.remove() }
        try root.write("contracts/a.json", "old")
        // What a kill after the first of two moves leaves: the manifest, a's backup, a replaced, b still staged.
        let folder = root.staging.appendingPathComponent("killed")
        try root.write("\(FileTransaction.stagingName)/killed/files/scenarios%2Fb.json", "b")
        try root.write("\(FileTransaction.stagingName)/killed/backup/contracts%2Fa.json", "old")
        try root.write("\(FileTransaction.stagingName)/killed/manifest.json", #"["contracts/a.json", "scenarios/b.json"]"#)
        try root.write("contracts/a.json", "new")
        try FileTransaction.recover(root: root.url)
        #expect(root.read("contracts/a.json") == "old")
        #expect(root.read("scenarios/b.json") == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aTransactionKilledAfterItsDoneMarkIsKeptAndItsStagingSwept() throws {
        let root = try Root()
        defer { root.remove() }
        try root.write("contracts/a.json", "new")
        try root.write("\(FileTransaction.stagingName)/done-one/backup/contracts%2Fa.json", "old")
        try root.write("\(FileTransaction.stagingName)/done-one/manifest.json", #"["contracts/a.json"]"#)
        try root.write("\(FileTransaction.stagingName)/done-one/done", "")
        _ = try FileTransaction(root: root.url)
        #expect(root.read("contracts/a.json") == "new")
        #expect(!FileManager.default.fileExists(atPath: root.staging.appendingPathComponent("done-one").path))
    }

    @Test func aRunningTransactionIsNotSweptByAnother() throws {
        let root = try Root()
        defer { root.remove() }
        let first = try FileTransaction(root: root.url)
        try first.stage("a.json", Data("a".utf8))
        let second = try FileTransaction(root: root.url)
        try second.stage("b.json", Data("b".utf8))
        #expect(try first.commit().count == 1)
        #expect(try second.commit().count == 1)
        #expect(root.read("a.json") == "a" && root.read("b.json") == "b")
    }

    @Test func aPathOutsideTheRootIsRefused() throws {
        let root = try Root()
        defer { root.remove() }
        let transaction = try FileTransaction(root: root.url)
        for path in ["../x.json", "/etc/x", "a/../../x", "", "\(FileTransaction.stagingName)/x"] {
            #expect(throws: FileTransactionError.self, "\(path)") { try transaction.stage(path, Data()) }
        }
    }
}

/// `SafeFileWrite`: report and HAR files are never written through a symlink.
@Suite struct SafeFileWriteTests {
    @Test func aSymlinkAtTheTargetIsRefusedAndItsTargetUntouched() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("keep".utf8).write(to: victim)
        let link = folder.appendingPathComponent("report.xml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        do {
            try SafeFileWrite.write(Data("evil".utf8), to: link.path)
            Issue.record("wrote through the symlink")
        } catch {
            #expect(error.reason.contains("symlink"))
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        try SafeFileWrite.write(Data("one".utf8), to: folder.appendingPathComponent("plain.txt").path)
        try SafeFileWrite.write(Data("two".utf8), to: folder.appendingPathComponent("plain.txt").path, append: true)
        #expect(try String(contentsOf: folder.appendingPathComponent("plain.txt"), encoding: .utf8) == "onetwo")
    }
}
