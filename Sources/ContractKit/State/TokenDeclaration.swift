/// How a `jwt-hs256` field is made: which fields become claims, how long it lives, and where its signing key comes from.
///
/// The key itself is deployment configuration, not a contract fact: the real server reads it from an environment
/// variable no client sees. A contract may name that variable (`secretEnvironment`); the value reaches SpotCheck only
/// from whoever runs it (`--secret token=VALUE`, or the named variable), and lands in `secret` through
/// `DeploymentSecrets.resolving(_:)`. Without one, `serve` signs with a random key of its own and `verify` checks every
/// part of a token but its signature.
public struct TokenDeclaration: Sendable, Equatable {
    /// Record fields copied into the claims, in order, before `iat` and `exp`.
    public let claims: [String]
    /// Seconds from `iat` to `exp`.
    public let lifetime: Int
    /// The HMAC-SHA256 key this run was given; never read from a contract.
    public let secret: String?
    /// The environment variable the server reads its key from (`JWT_SECRET`), when the contract names it.
    public let secretEnvironment: String?

    /// A declaration from its parts.
    public init(claims: [String], lifetime: Int, secret: String?, secretEnvironment: String? = nil) {
        self.claims = claims
        self.lifetime = lifetime
        self.secret = secret
        self.secretEnvironment = secretEnvironment
    }

    /// The same declaration signing and checked with `secret`.
    public func with(secret: String?) -> TokenDeclaration {
        TokenDeclaration(claims: claims, lifetime: lifetime, secret: secret, secretEnvironment: secretEnvironment)
    }

    static let keys = ["claims", "lifetime", "secretEnvironment"]

    static func read(_ value: JSONValue, file: String, pointer: String, problems: inout [LintProblem]) -> TokenDeclaration? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "token", problems: &problems) else { return nil }
        let before = problems.count
        if reader.object["secret"] != nil {
            // Said apart from the unknown-key message: the key existed, and a folder written for it needs to know why it went.
            problems.append(LintProblem(file: file, pointer: reader.at("secret"), message:
                "a signing key is deployment configuration, not a contract fact: name the environment variable the server reads it "
                + "from in secretEnvironment (e.g. \"JWT_SECRET\") and give the value to verify with --secret token=VALUE or that variable"))
        }
        reader.checkKeys(allowed: keys + ["secret"], required: ["claims", "lifetime"], what: "token", problems: &problems)
        let claims = StateDeclarationReader.strings(reader.object["claims"], file: file, pointer: reader.at("claims"), problems: &problems)
        let lifetime = reader.int("lifetime", minimum: 1, problems: &problems)
        let environment = reader.string("secretEnvironment", problems: &problems)
        if let environment, !DeploymentSecrets.isEnvironmentName(environment) {
            problems.append(LintProblem(file: file, pointer: reader.at("secretEnvironment"),
                                        message: "secretEnvironment must be an environment variable name (letters, digits and _, not starting with a digit); got \"\(environment)\""))
        }
        guard problems.count == before, let lifetime else { return nil }
        return TokenDeclaration(claims: claims, lifetime: lifetime, secret: nil, secretEnvironment: environment)
    }
}
