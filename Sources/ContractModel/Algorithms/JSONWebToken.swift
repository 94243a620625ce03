import ContractKit
import Foundation

/// The `jwt-hs256` generator: a compact JWT, header `{"alg":"HS256","typ":"JWT"}`, signed with HMAC-SHA256, as the
/// `jsonwebtoken` package signs it (claims in order, then `iat`, then `exp`).
enum JSONWebToken {
    /// A token over `claims` plus `iat` (whole seconds of `now`) and `exp` = `iat` + the declared lifetime.
    static func hs256(claims: [(String, JSONValue)], now: Date, token: TokenDeclaration) -> String {
        let iat = Int(now.timeIntervalSince1970.rounded(.down))
        let payload = JSONObject(claims + [("iat", .number(Double(iat))), ("exp", .number(Double(iat + token.lifetime)))])
        let signed = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + base64URL(JSONValue.object(payload).serializedBytes())
        let signature = HMACSHA256.mac(key: token.secret.map { Array($0.utf8) } ?? unstatedKey, message: Array(signed.utf8))
        return signed + "." + base64URL(signature)
    }

    /// The key of a declaration that states no secret: random per process, so no client can rely on it.
    private static let unstatedKey: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }

    /// Base64url without padding (RFC 7515, section 2).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
