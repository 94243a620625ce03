/// How a `jwt-hs256` field is made: which fields become claims, how long it lives, and the signing secret.
///
/// The secret, when the contract states it, is the HMAC key the mock signs with and the one a server's tokens are checked
/// against (the real server reads it from `JWT_SECRET`, which no client sees: state the value the server under test is
/// started with, or leave it out and the signature is not checked; the mock then signs with a key of its own).
public struct TokenDeclaration: Sendable, Equatable {
    /// Record fields copied into the claims, in order, before `iat` and `exp`.
    public let claims: [String]
    /// Seconds from `iat` to `exp`.
    public let lifetime: Int
    /// The HMAC-SHA256 key, when the contract states it.
    public let secret: String?

    /// A declaration from its parts.
    public init(claims: [String], lifetime: Int, secret: String?) {
        self.claims = claims
        self.lifetime = lifetime
        self.secret = secret
    }

    static let keys = ["claims", "lifetime", "secret"]

    static func read(_ value: JSONValue, file: String, pointer: String, problems: inout [LintProblem]) -> TokenDeclaration? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "token", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: keys, required: ["claims", "lifetime"], what: "token", problems: &problems)
        let claims = StateDeclarationReader.strings(reader.object["claims"], file: file, pointer: reader.at("claims"), problems: &problems)
        let lifetime = reader.int("lifetime", minimum: 1, problems: &problems)
        let secret = reader.string("secret", problems: &problems)
        if let secret, secret.isEmpty {
            problems.append(LintProblem(file: file, pointer: reader.at("secret"), message: "secret must not be empty"))
        }
        guard problems.count == before, let lifetime else { return nil }
        return TokenDeclaration(claims: claims, lifetime: lifetime, secret: secret)
    }
}
