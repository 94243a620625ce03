import Foundation

/// `jwt-hs256`: a compact JWT whose header is `{"alg":"HS256","typ":"JWT"}`, whose claims are exactly the declared fields
/// (equal to the answer's own values of them), `iat` and `exp`, with `exp - iat` the declared lifetime and `iat` close
/// to the server's clock, and, where the run was given the server's key (`DeploymentSecrets`), an HMAC-SHA256 signature under it.
enum JWTHS256Check {
    static let shape = "a JWT: three base64url parts, header.claims.signature"

    static func problem(_ value: JSONValue, context: GeneratedValueContext) -> GeneratedValueProblem? {
        guard let text = value.stringValue else { return GeneratedValueProblem(expected: shape, got: SchemaValidator.describe(value)) }
        let got = GeneratedValueProblem.quoted(text)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = base64URLDecoded(parts[0]), let claimBytes = base64URLDecoded(parts[1]),
              let signature = base64URLDecoded(parts[2]) else { return GeneratedValueProblem(expected: shape, got: got) }
        guard let header = try? JSONValue(parsing: Data(headerBytes)), header == ["alg": "HS256", "typ": "JWT"] else {
            return GeneratedValueProblem(expected: "the JWT header {\"alg\":\"HS256\",\"typ\":\"JWT\"}",
                                         got: "header " + String(decoding: headerBytes, as: UTF8.self))
        }
        guard let claims = (try? JSONValue(parsing: Data(claimBytes)))?.objectValue else {
            return GeneratedValueProblem(expected: "JWT claims that are a JSON object", got: "claims " + String(decoding: claimBytes, as: UTF8.self))
        }
        guard let token = context.token else { return nil }
        let names = token.claims + ["iat", "exp"]
        if Set(claims.keys) != Set(names) || claims.count != names.count {
            return GeneratedValueProblem(expected: "the claims \(names.joined(separator: ", ")) (x-state.token)",
                                         got: "the claims \(claims.keys.joined(separator: ", "))")
        }
        for name in token.claims {
            if let own = context.record[name], claims[name] != own {
                return GeneratedValueProblem(expected: "the claim \(name) equal to the answer's \(name) \(SchemaValidator.describe(own))",
                                             got: SchemaValidator.describe(claims[name] ?? .null))
            }
        }
        guard let iat = wholeSeconds(claims["iat"]), let exp = wholeSeconds(claims["exp"]) else {
            return GeneratedValueProblem(expected: "iat and exp in whole seconds", got: "iat \(SchemaValidator.describe(claims["iat"] ?? .null)), exp \(SchemaValidator.describe(claims["exp"] ?? .null))")
        }
        if exp - iat != token.lifetime {
            return GeneratedValueProblem(expected: "exp - iat = \(token.lifetime) s (x-state.token.lifetime)", got: "exp - iat = \(exp - iat) s")
        }
        let offset = Date(timeIntervalSince1970: TimeInterval(iat)).timeIntervalSince(context.serverTime)
        if abs(offset) > context.tolerance + 1 {
            return GeneratedValueProblem(
                expected: "iat at the time of the answer (\(Timestamps.text(context.serverTime))) within \(Int(context.tolerance / 60)) minutes",
                got: "iat \(iat), \(Timestamps.distance(offset)) \(offset < 0 ? "earlier" : "later")")
        }
        if let secret = context.token?.secret {
            let expected = HMACSHA256.mac(key: Array(secret.utf8), message: Array("\(parts[0]).\(parts[1])".utf8))
            if signature != expected {
                return GeneratedValueProblem(expected: "an HMAC-SHA256 signature under the given key (--secret token)",
                                             got: "another signature, \(parts[2].prefix(16))…")
            }
        }
        return nil
    }

    private static func wholeSeconds(_ value: JSONValue?) -> Int? {
        guard let number = value?.numberValue, number.rounded() == number, abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// The bytes of unpadded base64url text (RFC 7515, section 2); nil for any other character or a padded part.
    static func base64URLDecoded(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.allSatisfy({ b in (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
