import ContractKit
import Foundation

/// Turns a file as commands show it and a JSON pointer into a repository-relative path and line, for annotations and SARIF.
///
/// Each file is read and indexed once, only when a CI report asks; nothing here runs while serving traffic.
public struct SourceLocator: Sendable {
    /// The folder paths are made relative to: the repository around the working directory, else the working directory.
    public let root: URL
    private var indexes: [String: JSONLineIndex] = [:]

    /// A locator relative to `root` (default: the enclosing git repository of the working directory).
    public init(root: URL? = nil) {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        self.root = root ?? Self.repositoryRoot(from: workingDirectory) ?? workingDirectory
    }

    /// The location of `pointer` (or of its closest existing ancestor) in `file`, a path relative to the working
    /// directory or absolute; without a line when the file cannot be read as JSON.
    public mutating func location(file: String, pointer: String?) -> CILocation {
        let url = URL(fileURLWithPath: file)
        let path = url.standardizedFileURL.path
        var location = CILocation(file: LintPrinter.displayPath(url, relativeTo: root))
        guard let pointer else { return location }
        if indexes[path] == nil, let data = FileManager.default.contents(atPath: path) {
            indexes[path] = JSONLineIndex(bytes: [UInt8](data))
        }
        if let position = indexes[path]?.nearestPosition(of: pointer) {
            location.line = position.line
            location.column = position.column
        }
        return location
    }

    /// The nearest folder at or above `directory` holding `.git` (a folder, or a file in a worktree).
    static func repositoryRoot(from directory: URL) -> URL? {
        var current = directory.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return current }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }
}
