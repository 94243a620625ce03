import Foundation

/// One problem found in a user-written file (contract, schema, scenario, ...): where it is and what is wrong.
public struct LintProblem: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The file as it should be shown to a person, e.g. "contracts/create-announcement.json".
    public let file: String
    /// JSON pointer to the offending value, "" for the whole document.
    public let pointer: String
    /// What is wrong and what was expected, written for a person.
    public let message: String
    /// 1-based line, when known (JSON syntax errors).
    public let line: Int?
    /// 1-based column, when known (JSON syntax errors).
    public let column: Int?

    /// A problem located by a JSON pointer.
    public init(file: String, pointer: String, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
        self.line = nil
        self.column = nil
    }

    /// A problem located by line and column, e.g. a JSON syntax error.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.pointer = ""
        self.message = message
        self.line = line
        self.column = column
    }

    /// A problem located by both: a line and column (when known) and the JSON pointer there, as in OpenAPI documents,
    /// where the pointer alone does not say which file line a person should open.
    public init(file: String, line: Int?, column: Int?, pointer: String, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
        self.line = line
        self.column = column
    }

    /// A syntax error in `file`, located by its line and column.
    public init(file: String, syntaxError: JSONSyntaxError) {
        self.init(file: file, line: syntaxError.line, column: syntaxError.column,
                  message: "invalid JSON: \(syntaxError.reason)")
    }

    /// `file:pointer: message`, or `file:line:column: message` for positional problems, `file:line:column: pointer: message`
    /// when both are known; the root pointer prints as "(root)".
    public var description: String {
        if let line, let column, !pointer.isEmpty { return "\(file):\(line):\(column): \(pointer): \(message)" }
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file):\(pointer.isEmpty ? "(root)" : pointer): \(message)"
    }
}

/// Renders lint problems for a terminal, one `file:pointer: message` line each, in a stable order.
public enum LintPrinter {
    /// All problems, one per line, followed by a count; an empty string when there are none.
    public static func render(_ problems: [LintProblem]) -> String {
        guard !problems.isEmpty else { return "" }
        var lines = problems.map(\.description)
        let files = Set(problems.map(\.file)).count
        lines.append("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The path of `url` relative to `directory` (default: the working directory) when it lies inside it, else its full path.
    public static func displayPath(_ url: URL, relativeTo directory: URL? = nil) -> String {
        let base = (directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        return path
    }
}

/// A lint problem is also what parsers of user-written files throw.
extension LintProblem: Error {}
