import Foundation

/// What counts as a secret in an exchange SpotCheck writes to a file (HAR exports, imported examples), decided from
/// the contracts' declarations wherever they state it rather than from names written into Swift.
///
/// - headers: HTTP's own credential headers (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`),
///   SpotCheck's admin-token header, and every header a contract's `request.auth` names;
/// - JSON body fields: each `x-state` `secret` field, each `credentials` `stored` field and the body member it is
///   compared with, and each field generated as a signed token (`jwt-hs256`);
/// - query parameters: a name holding `token`, `key`, `password`, `secret` or `auth`, a body-field name above, or a
///   value shaped like a JWT.
public struct SecretNames: Sendable, Equatable {
    /// Header names, lowercased.
    public var headers: Set<String>
    /// JSON member names whose string values are secrets, wherever they appear in a body.
    public var bodyFields: Set<String>

    /// The headers that carry credentials in any HTTP API, plus SpotCheck's own admin-token headers.
    public static let httpHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-spotcheck-admin-token", "x-admin-token"]

    /// Parts of a query parameter name that mark its value as a secret.
    public static let queryNameParts = ["token", "key", "password", "secret", "auth"]

    /// The names with only HTTP's credential headers and `fields`.
    public init(headers: Set<String> = SecretNames.httpHeaders, bodyFields: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.bodyFields = bodyFields
    }

    /// The secrets the contracts of `contracts` declare, plus HTTP's credential headers.
    public init(contracts: ContractSet) {
        var headers = Self.httpHeaders
        var fields: Set<String> = []
        for contract in contracts.contracts {
            if let auth = contract.request.auth { headers.insert(auth.header.lowercased()) }
            guard let state = contracts.state.declaration(for: contract.id) else { continue }
            fields.formUnion(state.secret)
            for (field, generator) in state.generate where generator == .jwtHS256 { fields.insert(field) }
            if let credentials = state.credentials {
                fields.insert(credentials.stored)
                if case .body(let member) = credentials.sent { fields.insert(member) }
            }
        }
        self.init(headers: headers, bodyFields: fields)
    }

    /// Whether a header's value is a secret.
    public func isSecretHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }

    /// Whether a query parameter's value is a secret: by its name, or by the value's JWT shape.
    public func isSecretQuery(name: String, value: String) -> Bool {
        let lower = name.lowercased()
        return Self.queryNameParts.contains { lower.contains($0) } || bodyFields.contains(name) || Self.looksLikeJWT(value)
    }

    /// Three base64url parts joined by dots, the first a JSON object (`eyJ`).
    public static func looksLikeJWT(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, value.hasPrefix("eyJ") else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty || part.startIndex == parts[2].startIndex
        } && parts.allSatisfy { $0.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" || $0 == "_" || $0 == "=" } }
    }

    /// `body` with the string value of every secret field replaced by `replacement`, at any depth.
    public func redactingFields(_ body: JSONValue, replacement: String) -> JSONValue {
        switch body {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                (member.key, bodyFields.contains(member.key) && member.value.stringValue != nil
                    ? .string(replacement) : redactingFields(member.value, replacement: replacement))
            }))
        case .array(let items):
            return .array(items.map { redactingFields($0, replacement: replacement) })
        default:
            return body
        }
    }
}
