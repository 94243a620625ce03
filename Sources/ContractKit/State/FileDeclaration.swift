/// The file an `attach-file` action takes from a multipart body, its checks in order, and where it is published.
public struct FileDeclaration: Sendable, Equatable {
    /// One check of the upload, each answered by `x-errors[rule]`.
    public enum Rule: String, Sendable, CaseIterable {
        /// The multipart body cannot be read (no boundary, cut short, a second file under `part`, a huge text field).
        case malformed
        /// No file under `part` (no multipart body, only text fields, or a file under another name).
        case required
        /// The file is `request.maxFileBytes` or larger.
        case maxFileBytes
        /// `detect` finds no known type in the file's bytes.
        case detect
    }

    /// The named detectors the executor implements.
    public static let detectors = ["image-type"]

    /// The multipart part holding the file.
    public let part: String
    /// The named algorithm that types the file from its bytes (e.g. `image-type`).
    public let detect: String
    /// The size limit (exclusive), from `request.maxFileBytes`; nil: no limit.
    public let maxBytes: Int?
    /// Every rule's answer, in the order the rules are checked.
    public let rules: [(rule: Rule, answer: DeclaredAnswer)]
    /// The published address of the stored file, e.g. `/images/{id}.{ext}` (`{ext}`: the detected type's extension).
    public let url: String
    /// The record field that holds `url` once a file is stored, e.g. `photoUrl`.
    public let field: String

    /// The answer of `rule`.
    public func answer(_ rule: Rule) -> DeclaredAnswer? { rules.first { $0.rule == rule }?.answer }

    public static func == (lhs: FileDeclaration, rhs: FileDeclaration) -> Bool {
        lhs.part == rhs.part && lhs.detect == rhs.detect && lhs.maxBytes == rhs.maxBytes && lhs.url == rhs.url && lhs.field == rhs.field
            && lhs.rules.map(\.rule) == rhs.rules.map(\.rule) && lhs.rules.map(\.answer) == rhs.rules.map(\.answer)
    }

    static let keys = ["part", "detect", "x-errors", "url", "field"]

    static func read(_ value: JSONValue, contract: Contract, file: String, pointer: String, problems: inout [LintProblem]) -> FileDeclaration? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "file", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: keys, required: keys, what: "file", problems: &problems)
        let part = reader.string("part", problems: &problems)
        if let part, !contract.request.parts.contains(where: { $0.name == part && $0.kind == "file" }) {
            problems.append(LintProblem(file: file, pointer: reader.at("part"), message: "\(part) is not a file part of request.parts"))
        }
        let detect = reader.string("detect", problems: &problems)
        if let detect, !detectors.contains(detect) {
            problems.append(LintProblem(file: file, pointer: reader.at("detect"),
                message: "unknown detector \"\(detect)\"; known: \(detectors.joined(separator: ", "))"))
        }
        let url = reader.string("url", problems: &problems)
        let field = reader.string("field", problems: &problems)
        var rules: [(rule: Rule, answer: DeclaredAnswer)] = []
        if let errors = reader.object["x-errors"] {
            let at = reader.at("x-errors")
            if case .object(let members) = errors {
                for (key, answerValue) in members {
                    guard let rule = Rule(rawValue: key) else {
                        problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at, key),
                            message: "unknown file rule \"\(key)\"; known: \(Rule.allCases.map(\.rawValue).joined(separator: ", "))"))
                        continue
                    }
                    if rule == .maxFileBytes, contract.request.maxFileBytes == nil {
                        problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at, key), message: "maxFileBytes needs request.maxFileBytes"))
                    }
                    if let answer = DeclaredAnswer.read(answerValue, file: file, pointer: JSONPointer.appending(at, key), problems: &problems) {
                        rules.append((rule, answer))
                    }
                }
                for rule in Rule.allCases where !members.keys.contains(rule.rawValue) && (rule != .maxFileBytes || contract.request.maxFileBytes != nil) {
                    problems.append(LintProblem(file: file, pointer: at, message: "x-errors has no answer for the file rule \"\(rule.rawValue)\""))
                }
            } else {
                problems.append(LintProblem(file: file, pointer: at, message: "x-errors must be an object of rule → answer"))
            }
        }
        guard problems.count == before, let part, let detect, let url, let field else { return nil }
        return FileDeclaration(part: part, detect: detect, maxBytes: contract.request.maxFileBytes, rules: rules, url: url, field: field)
    }
}
