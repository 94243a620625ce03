/// The keys a server under test was deployed with, as far as this run was given them: never part of a contract.
///
/// A token's signing key is the only one today (`jwt-hs256`, named `token`). It comes from `--secret token=VALUE`, else
/// from the environment variable a contract names (`x-state.token.secretEnvironment`). `serve` signs with it when
/// given and with a random key of its own otherwise; `verify` checks a token's signature only when given it.
public struct DeploymentSecrets: Sendable, Equatable {
    /// The name `--secret` gives a `jwt-hs256` token's signing key.
    public static let tokenName = "token"
    /// Every name `--secret` accepts.
    public static let names = [tokenName]

    /// The token's signing key, when this run was given one.
    public var token: String?
    /// Where `token` came from, for reports: `--secret token` or `the environment variable JWT_SECRET`.
    public var tokenSource: String?

    /// Secrets from their parts; none by default.
    public init(token: String? = nil, tokenSource: String? = nil) {
        self.token = token
        self.tokenSource = tokenSource
    }

    /// The secrets of `--secret NAME=VALUE` options, then, for the token when no option gave it, the first environment
    /// variable the contracts name that is set and not empty.
    public static func resolve(options: [String], contracts: ContractSet,
                               environment: [String: String]) throws(DeploymentSecretError) -> DeploymentSecrets {
        var secrets = DeploymentSecrets()
        for option in options {
            guard let equals = option.firstIndex(of: "=") else {
                throw DeploymentSecretError(option: option, reason: "expected NAME=VALUE, e.g. token=my-jwt-secret")
            }
            let name = String(option[..<equals])
            let value = String(option[option.index(after: equals)...])
            guard names.contains(name) else {
                throw DeploymentSecretError(option: option, reason: "unknown secret name \"\(name)\"; known: \(names.joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw DeploymentSecretError(option: option, reason: "the value is empty") }
            guard secrets.token == nil else { throw DeploymentSecretError(option: option, reason: "\(name) is given twice") }
            secrets.token = value
            secrets.tokenSource = "--secret \(name)"
        }
        if secrets.token == nil {
            for variable in environmentNames(in: contracts) {
                if let value = environment[variable], !value.isEmpty {
                    secrets.token = value
                    secrets.tokenSource = "the environment variable \(variable)"
                    break
                }
            }
        }
        return secrets
    }

    /// The environment variables the contracts name for token keys, in contract order, each once.
    public static func environmentNames(in contracts: ContractSet) -> [String] {
        var names: [String] = []
        for contract in contracts.contracts {
            if let name = contracts.state.declaration(for: contract.id)?.token?.secretEnvironment, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Whether any contract of `contracts` makes a `jwt-hs256` token.
    public static func hasTokens(_ contracts: ContractSet) -> Bool {
        contracts.contracts.contains { contracts.state.declaration(for: $0.id)?.token != nil }
    }

    /// `token` signing and checked with this run's key (none: a mock's own random key, and no signature check).
    public func resolving(_ token: TokenDeclaration) -> TokenDeclaration { token.with(secret: self.token) }

    /// What a verification does with token signatures, one line for its report; nil when no contract makes a token.
    public func tokenCheckLine(for contracts: ContractSet) -> String? {
        guard Self.hasTokens(contracts) else { return nil }
        if let tokenSource {
            return "token signatures: checked (HMAC-SHA256 under the key from \(tokenSource)); header, claims and lifetime checked"
        }
        let variables = Self.environmentNames(in: contracts)
        let hint = variables.isEmpty ? "--secret token=VALUE" : "--secret token=VALUE or \(variables.joined(separator: " or "))"
        return "token signatures: not checked (no key given: \(hint)); header, claims and lifetime checked"
    }

    /// Whether `name` can be an environment variable's name (POSIX portable: letters, digits, `_`, no leading digit).
    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { b in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
        }
    }
}

/// A `--secret` option that cannot be used, with the option as given and why.
public struct DeploymentSecretError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option's text; its value is never repeated in the description (it is a secret).
    public let option: String
    /// What is wrong with it.
    public let reason: String

    public var description: String {
        let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        return "--secret \(name)=…: \(reason)"
    }
}
