import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// Damage is refused with the file, line and byte offset and the directory left byte for byte as it was; only a
/// torn tail (a record without its line end) is dropped, and said so; symlinks are refused; old logs still read.
@Suite struct StoreDataDirectoryDamageTests {
    typealias T = StoreDataDirectoryTestSupport

    /// A directory holding two announcements (one with a photo), closed.
    private func populated() async throws -> (URL, [String]) {
        let directory = T.temporaryDirectory()
        let persistence = try StoreDataDirectory.open(directory)
        let store = RecordStore(seed: 1, persistence: persistence)
        let first = try #require(await T.create(store, name: "Alpha").id)
        let second = try #require(await T.create(store, name: "Bravo").id)
        #expect(await T.upload(store, id: second))
        persistence.close()
        return (directory, [first, second])
    }

    private var logURL: (URL) -> URL { { $0.appendingPathComponent(StoreDataDirectory.logName) } }

    @Test func aByteChangedInsideAJSONStringIsCaughtByTheChecksumAndNothingIsWritten() async throws {
        let (directory, _) = try await populated()
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try Data(contentsOf: logURL(directory))
        let at = try #require(log.firstRange(of: Data("Bravo".utf8))).lowerBound
        log[at] = UInt8(ascii: "C")  // still valid JSON: only the checksum can tell
        try log.write(to: logURL(directory))
        let before = try T.files(directory)
        let lineStart = log[..<at].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            let text = "\(error)"
            return text.contains(StoreDataDirectory.logName) && text.contains("line 2 (byte offset \(lineStart))")
                && text.contains("checksum mismatch") && text.contains("left untouched")
        }
        #expect(try T.files(directory) == before)
    }

    @Test func aDamagedCompleteLastRecordRefusesStartAndLeavesTheFileByteForByte() async throws {
        let (directory, _) = try await populated()
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try Data(contentsOf: logURL(directory))
        // Cut the last record's JSON short but keep its line end: complete, yet unreadable. Not a torn tail.
        let lastStart = try #require(log.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
        log.replaceSubrange(lastStart..<(log.count - 1), with: Data(#"{"op":"photo","id""#.utf8))
        try log.write(to: logURL(directory))
        let before = try T.files(directory)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("line 3 (byte offset \(lastStart)) is damaged")
        }
        #expect(try T.files(directory) == before)
        // A failed start must not have left the directory locked or half-repaired: the same refusal again.
        #expect(throws: StoreDataDirectoryError.self) { _ = try StoreDataDirectory.open(directory) }
    }

    @Test func aLogOfOnlyUnreadableLinesIsRefusedNotEmptied() throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        StoreDataDirectory.open(directory, orFail: ())
        let garbage = Data("garbage\nmore garbage\n".utf8)
        try garbage.write(to: logURL(directory))
        #expect(throws: StoreDataDirectoryError.self) { _ = try StoreDataDirectory.open(directory) }
        #expect(try Data(contentsOf: logURL(directory)) == garbage)
    }

    @Test func aTornTailIsDroppedWithAMessageNamingFileAndOffset() async throws {
        let (directory, ids) = try await populated()
        defer { try? FileManager.default.removeItem(at: directory) }
        let intact = try Data(contentsOf: logURL(directory))
        let handle = try FileHandle(forWritingTo: logURL(directory))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"op":"delete","id":"\#(ids[0])"}"#.utf8))  // the line end never made it
        try handle.close()
        let persistence = try StoreDataDirectory.open(directory)
        let store = RecordStore(seed: 1, persistence: persistence)
        #expect(store.count == 2)
        #expect(persistence.notices.contains { $0.contains(logURL(directory).path) && $0.contains("torn last record at byte offset \(intact.count)") })
        persistence.close()
        #expect(try Data(contentsOf: logURL(directory)) == intact)
    }

    @Test func aSymlinkedLogIsRefusedAndTheFileItPointsToIsUntouched() throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        StoreDataDirectory.open(directory, orFail: ())
        let elsewhere = directory.deletingLastPathComponent().appendingPathComponent("precious-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try Data("someone's work, and a torn tail".utf8).write(to: elsewhere)
        try FileManager.default.removeItem(at: logURL(directory))
        try FileManager.default.createSymbolicLink(at: logURL(directory), withDestinationURL: elsewhere)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("is a symbolic link")
        }
        #expect(try Data(contentsOf: elsewhere) == Data("someone's work, and a torn tail".utf8))
    }

    @Test func aSymlinkedPhotoOrPhotoFolderIsRefused() async throws {
        let (directory, _) = try await populated()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent(StoreDataDirectory.photosName)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: photos.path).first)
        let real = directory.appendingPathComponent("moved-away.png")
        try FileManager.default.moveItem(at: photos.appendingPathComponent(name), to: real)
        try FileManager.default.createSymbolicLink(at: photos.appendingPathComponent(name), withDestinationURL: real)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains(name) && "\(error)".contains("symbolic link")
        }
        try FileManager.default.removeItem(at: photos.appendingPathComponent(name))
        try FileManager.default.moveItem(at: real, to: photos.appendingPathComponent(name))
        let moved = directory.appendingPathComponent("photos-real")
        try FileManager.default.moveItem(at: photos, to: moved)
        try FileManager.default.createSymbolicLink(at: photos, withDestinationURL: moved)
        #expect {
            _ = try StoreDataDirectory.open(directory)
        } throws: { error in
            "\(error)".contains("symbolic link")
        }
    }

    @Test func aVersionOneDirectoryIsReadAndUpgradedByTheStartCompaction() throws {
        let directory = T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
        // Exactly what spotcheck wrote before checksums: marker version 1, bare JSON lines.
        try Data(#"{"format":"spotcheck-mock-store","version":1}"#.utf8 + [10]).write(to: directory.appendingPathComponent(StoreDataDirectory.markerName))
        let json = String(decoding: T.announcement("old-1").json.serializedBytes(), as: UTF8.self)
        // Its log has the name every directory had before the marker named it.
        let log = directory.appendingPathComponent(StoreDataDirectory.legacyLogName)
        try Data(#"{"op":"put","id":"old-1","password":"123456","created":true,"announcement":\#(json)}"#.utf8 + [10]).write(to: log)
        let persistence = try StoreDataDirectory.open(directory)
        let store = RecordStore(seed: 1, persistence: persistence)
        #expect(store.authenticate(id: "old-1", password: "123456") == .ok)
        persistence.close()
        let marker = try String(contentsOf: directory.appendingPathComponent(StoreDataDirectory.markerName), encoding: .utf8)
        #expect(marker.contains(#""version":3"#) && marker.contains(#""generation":1"#))
        #expect(!FileManager.default.fileExists(atPath: log.path))
        let reopened = RecordStore(seed: 1, persistence: try StoreDataDirectory.open(directory))
        #expect(reopened.authenticate(id: "old-1", password: "123456") == .ok)
        reopened.persistence?.close()
    }
}

extension StoreDataDirectory {
    /// Opens and closes a new directory, recording an issue when that fails.
    static func open(_ url: URL, orFail: Void) {
        do { try open(url).close() } catch { Issue.record("cannot initialise \(url.path): \(error)") }
    }
}
