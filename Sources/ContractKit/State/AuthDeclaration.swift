/// The checks of `request.auth` with the answer of each, read from its `x-errors` (and `x-token`, `x-empty-is-missing`).
///
/// The checks of a scheme run in one order, the order its credentials can be taken apart in; `x-errors` lists them in
/// that order so the file reads like the code it replaces. A class for the same reason as `StateDeclaration`.
public final class AuthDeclaration: Sendable, Equatable {
    /// One check of an auth header.
    public enum Check: String, Sendable, CaseIterable {
        /// No header (or, with `x-empty-is-missing`, an empty one; a blank Basic header always counts as missing).
        case missing
        /// Basic: the scheme is not `basic` (any case) or nothing follows it.
        case format
        /// Basic: the credentials are not base64 of UTF-8 text.
        case base64
        /// Basic: the decoded credentials have no colon.
        case noColon = "no-colon"
        /// Basic: the user or the password is empty.
        case empty
        /// A token scheme: the value is not the configured token.
        case mismatch
    }

    /// Where a token scheme's expected value comes from.
    public enum TokenSource: String, Sendable, CaseIterable {
        /// The `--admin-token` option of `serve` (the configuration's admin token).
        case adminTokenOption = "--admin-token"
    }

    /// `basic`, `bearer` or `apiKey`.
    public let scheme: String
    /// The header carrying the credentials.
    public let header: String
    /// Every check's answer, in check order.
    public let answers: [(check: Check, answer: DeclaredAnswer)]
    /// Where the expected token comes from (token schemes only).
    public let token: TokenSource?
    /// Whether an empty header value counts as no header (Express tests `!req.headers.authorization`).
    public let emptyIsMissing: Bool

    init(scheme: String, header: String, answers: [(check: Check, answer: DeclaredAnswer)], token: TokenSource?, emptyIsMissing: Bool) {
        self.scheme = scheme
        self.header = header
        self.answers = answers
        self.token = token
        self.emptyIsMissing = emptyIsMissing
    }

    /// The answer of `check`.
    public func answer(_ check: Check) -> DeclaredAnswer? { answers.first { $0.check == check }?.answer }

    /// The checks a scheme makes, in the order it makes them.
    public static func checks(scheme: String) -> [Check] {
        scheme == "basic" ? [.missing, .format, .base64, .noColon, .empty] : [.missing, .mismatch]
    }

    public static func == (lhs: AuthDeclaration, rhs: AuthDeclaration) -> Bool {
        lhs.scheme == rhs.scheme && lhs.header == rhs.header && lhs.token == rhs.token && lhs.emptyIsMissing == rhs.emptyIsMissing
            && lhs.answers.map(\.check) == rhs.answers.map(\.check) && lhs.answers.map(\.answer) == rhs.answers.map(\.answer)
    }

    /// Reads `request.auth` of a contract; nil (no problem) when it has no `x-errors`.
    static func read(_ auth: JSONValue, file: String, problems: inout [LintProblem]) -> AuthDeclaration? {
        let pointer = "/request/auth"
        guard case .object(let object) = auth, let errors = object["x-errors"] else {
            if case .object(let object) = auth, object["x-token"] != nil {
                problems.append(LintProblem(file: file, pointer: pointer + "/x-token", message: "x-token needs the checks' answers in x-errors"))
            }
            return nil
        }
        let scheme = object["scheme"]?.stringValue ?? ""
        let header = object["header"]?.stringValue ?? "Authorization"
        let expected = checks(scheme: scheme)
        let at = pointer + "/x-errors"
        let before = problems.count
        var answers: [(check: Check, answer: DeclaredAnswer)] = []
        if case .object(let members) = errors {
            for (key, value) in members {
                let keyAt = JSONPointer.appending(at, key)
                guard let check = Check(rawValue: key), expected.contains(check) else {
                    problems.append(LintProblem(file: file, pointer: keyAt,
                        message: "unknown auth check \"\(key)\" for the \(scheme) scheme; its checks are, in order: \(expected.map(\.rawValue).joined(separator: ", "))"))
                    continue
                }
                if let answer = DeclaredAnswer.read(value, file: file, pointer: keyAt, problems: &problems) { answers.append((check, answer)) }
            }
            let order = answers.map(\.check)
            for check in expected where !order.contains(check) {
                problems.append(LintProblem(file: file, pointer: at, message: "x-errors has no answer for the \(scheme) check \"\(check.rawValue)\""))
            }
            if problems.count == before, order != expected {
                problems.append(LintProblem(file: file, pointer: at,
                    message: "list the \(scheme) checks in the order they run: \(expected.map(\.rawValue).joined(separator: ", "))"))
            }
        } else {
            problems.append(LintProblem(file: file, pointer: at, message: "x-errors must be an object of check → answer"))
        }
        var token: TokenSource?
        if let value = object["x-token"] {
            if scheme == "basic" {
                problems.append(LintProblem(file: file, pointer: pointer + "/x-token", message: "x-token is for token schemes (apiKey, bearer), not basic"))
            } else if let name = value.stringValue, let source = TokenSource(rawValue: name) {
                token = source
            } else {
                problems.append(LintProblem(file: file, pointer: pointer + "/x-token",
                    message: "x-token names where the token comes from: one of \(TokenSource.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
        } else if scheme != "basic" {
            problems.append(LintProblem(file: file, pointer: pointer, message: "a \(scheme) scheme with x-errors needs x-token (where the expected token comes from)"))
        }
        var emptyIsMissing = false
        if let value = object["x-empty-is-missing"] {
            if let flag = value.boolValue { emptyIsMissing = flag } else {
                problems.append(LintProblem(file: file, pointer: pointer + "/x-empty-is-missing", message: "x-empty-is-missing must be true or false"))
            }
        }
        guard problems.count == before else { return nil }
        return AuthDeclaration(scheme: scheme, header: header, answers: answers, token: token, emptyIsMissing: emptyIsMissing)
    }
}
