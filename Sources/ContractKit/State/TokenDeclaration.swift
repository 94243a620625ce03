/// How a `jwt-hs256` field is made: which fields become claims, how long it lives, and the signing secret.
///
/// The secret is a fixed value stated in the contract (the real server reads it from `JWT_SECRET`, which no client
/// sees); a test that checks a signature reads it from here.
public struct TokenDeclaration: Sendable, Equatable {
    /// Record fields copied into the claims, in order, before `iat` and `exp`.
    public let claims: [String]
    /// Seconds from `iat` to `exp`.
    public let lifetime: Int
    /// The HMAC-SHA256 key.
    public let secret: String

    static let keys = ["claims", "lifetime", "secret"]

    static func read(_ value: JSONValue, file: String, pointer: String, problems: inout [LintProblem]) -> TokenDeclaration? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "token", problems: &problems) else { return nil }
        let before = problems.count
        reader.checkKeys(allowed: keys, required: keys, what: "token", problems: &problems)
        let claims = StateDeclarationReader.strings(reader.object["claims"], file: file, pointer: reader.at("claims"), problems: &problems)
        let lifetime = reader.int("lifetime", minimum: 1, problems: &problems)
        let secret = reader.string("secret", problems: &problems)
        if let secret, secret.isEmpty {
            problems.append(LintProblem(file: file, pointer: reader.at("secret"), message: "secret must not be empty"))
        }
        guard problems.count == before, let lifetime, let secret else { return nil }
        return TokenDeclaration(claims: claims, lifetime: lifetime, secret: secret)
    }
}
