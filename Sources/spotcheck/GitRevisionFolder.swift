import ContractKit
import ContractModel
import Foundation

/// A folder of a git repository as it was at some revision, extracted into a temporary directory.
struct GitRevisionFolder {
    /// A failure of git or tar, with what they said.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The extracted copy of the folder.
    let url: URL
    /// The temporary directory to delete afterwards.
    let temporaryRoot: URL

    /// Extracts `folder` (inside a git work tree) at `revision` with `git archive`.
    static func extract(_ folder: URL, at revision: String) throws(Failure) -> GitRevisionFolder {
        let folder = folder.standardizedFileURL
        let top = try run(["git", "-C", folder.path, "rev-parse", "--show-toplevel"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let topURL = URL(fileURLWithPath: top).standardizedFileURL.resolvingSymlinksInPath()
        let resolved = folder.resolvingSymlinksInPath().path
        guard resolved == topURL.path || resolved.hasPrefix(topURL.path + "/") else {
            throw Failure(description: "\(folder.path) is not inside the git work tree \(top)")
        }
        let relative = resolved == topURL.path ? "." : String(resolved.dropFirst(topURL.path.count + 1))
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-diff-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create \(temporary.path): \(FileErrorText.reason(error))")
        }
        let archive = temporary.appendingPathComponent("revision.tar")
        do {
            _ = try run(["git", "-C", topURL.path, "archive", "--format=tar", "-o", archive.path, revision, "--", relative])
            _ = try run(["tar", "-xf", archive.path, "-C", temporary.path])
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return GitRevisionFolder(url: temporary.appendingPathComponent(relative), temporaryRoot: temporary)
    }

    /// Deletes the extracted copy.
    func remove() {
        try? FileManager.default.removeItem(at: temporaryRoot)
    }

    /// Runs a tool found on PATH and returns its standard output; a non-zero exit is a `Failure` with its standard error.
    static func run(_ arguments: [String]) throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(arguments[0]): \(FileErrorText.reason(error))")
        }
        // Read before waiting so a full pipe cannot block the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "\(arguments.joined(separator: " ")) failed: \(said)")
        }
        return String(decoding: out, as: UTF8.self)
    }
}
