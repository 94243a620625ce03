import Foundation
import Testing

@testable import ContractKit

/// Foundation's file errors read as words with the cause, never as "NSCocoaErrorDomain error 256".
@Suite struct FileErrorTextTests {
    private func error(_ body: () throws -> Void) -> (any Error)? {
        do { try body() } catch { return error }
        return nil
    }

    @Test func readingAFolderAMissingFileAndWritingIntoAMissingFolderSayWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-error-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [((any Error)?, [String])] = [
            (error { _ = try Data(contentsOf: folder) }, ["folder", "directory"]),
            (error { _ = try Data(contentsOf: folder.appendingPathComponent("missing.json")) }, ["no such file"]),
            (error { try Data("x".utf8).write(to: folder.appendingPathComponent("nope/out.json")) }, ["no such file", "not a folder"]),
            (error { _ = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("missing").path) }, ["no such file"]),
        ]
        for (caught, words) in cases {
            let text = FileErrorText.reason(try #require(caught))
            #expect(!text.contains("NSCocoaErrorDomain"), "\(text)")
            #expect(!text.contains("could not be completed"), "\(text)")
            #expect(words.contains { text.lowercased().contains($0) }, "\(text)")
        }
        let described = FileErrorText.describe(try #require(cases[1].0), "cannot read", "x/missing.json")
        #expect(described.hasPrefix("cannot read x/missing.json: "))
    }

    @Test func anErrorThatIsNotAboutFilesKeepsItsOwnText() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd thing" } }
        #expect(FileErrorText.reason(Odd()).contains("odd"))
    }
}
