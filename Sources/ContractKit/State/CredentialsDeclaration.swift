/// Which stored field opens a record, where the request carries the value compared with it, and the answer when they differ.
public struct CredentialsDeclaration: Sendable, Equatable {
    /// Where the sent secret is read from.
    public enum Source: Sendable, Equatable {
        /// The password part of the request's Basic credentials (`auth.password`).
        case authPassword
        /// A member of the JSON body (`body.<name>`).
        case body(String)
    }

    /// The stored field holding the secret, e.g. `managementPassword`.
    public let stored: String
    /// Where the request carries the value compared with it (in constant time).
    public let sent: Source
    /// The answer when the values differ.
    public let mismatch: DeclaredAnswer

    static let keys = ["stored", "sent", "mismatch"]

    static func read(_ value: JSONValue, contract: Contract, file: String, pointer: String, problems: inout [LintProblem]) -> CredentialsDeclaration? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "credentials", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: keys, required: keys, what: "credentials", problems: &problems)
        let stored = reader.string("stored", problems: &problems)
        var source: Source?
        if let sent = reader.string("sent", problems: &problems) {
            if sent == "auth.password" {
                source = .authPassword
                if contract.request.auth?.scheme != "basic" {
                    problems.append(LintProblem(file: file, pointer: reader.at("sent"), message: "auth.password needs request.auth with the basic scheme"))
                }
            } else if sent.hasPrefix("body."), sent.count > 5 {
                source = .body(String(sent.dropFirst(5)))
                if contract.request.body == nil {
                    problems.append(LintProblem(file: file, pointer: reader.at("sent"), message: "\(sent) needs a JSON request body"))
                }
            } else {
                problems.append(LintProblem(file: file, pointer: reader.at("sent"),
                    message: "sent must be \"auth.password\" or \"body.<field>\", found \"\(sent)\""))
            }
        }
        let mismatch = reader.object["mismatch"].flatMap {
            DeclaredAnswer.read($0, file: file, pointer: reader.at("mismatch"), problems: &problems)
        }
        guard problems.count == before, let stored, let source, let mismatch else { return nil }
        return CredentialsDeclaration(stored: stored, sent: source, mismatch: mismatch)
    }
}
