import Foundation
import Yams

/// A problem in an OpenAPI document: the file, the line and column where it starts, the JSON pointer and what is wrong.
/// A warning is served around (the operation or example it names is left out, or checked less); an error stops the load.
public struct OpenAPIProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as shown to a person.
    public let file: String
    /// 1-based line, when known.
    public let line: Int?
    /// 1-based column, when known.
    public let column: Int?
    /// JSON pointer into the file, "" for the whole document.
    public let pointer: String
    /// What is wrong and what was expected.
    public let message: String

    /// A problem at a position and pointer.
    public init(file: String, line: Int? = nil, column: Int? = nil, pointer: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.message = message
    }

    /// A YAML syntax error, at libyaml's mark.
    init(yaml error: YamlError, file: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let text = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            self.init(file: file, line: mark.line, column: mark.column, pointer: "", message: "invalid YAML: \(text)")
        default:
            self.init(file: file, pointer: "", message: "invalid YAML: \(error)")
        }
    }

    /// `file:line:column: pointer: message` (the pointer `(root)` for the whole document).
    public var description: String {
        let place = [line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(file)\(place.isEmpty ? "" : ":" + place): \(pointer.isEmpty ? "(root)" : pointer): \(message)"
    }

    /// The same problem as a lint problem (what `lint` and the loaders print).
    public var lintProblem: LintProblem {
        LintProblem(file: file, line: line, column: column, pointer: pointer, message: message)
    }
}
