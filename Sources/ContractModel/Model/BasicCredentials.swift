import Foundation

/// The user and password of an `Authorization: Basic ...` header, parsed the way the real backend does.
public struct BasicCredentials: Sendable, Equatable {
    /// The part before the first colon (the record's key where the credentials say `{id}:...`).
    public let user: String
    /// The part after the first colon (for PetSpot, the management password).
    public let password: String

    /// Why a header was not acceptable Basic credentials; each is a check of `request.auth.x-errors`, which states its answer.
    public enum Problem: Error, Sendable, Equatable {
        /// One case per rule of the real backend, in the order it checks them.
        case missingHeader, notBasicScheme, invalidBase64, noColon, emptyUserOrPassword
    }

    /// Creates credentials directly.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// Parses an `Authorization` header value; the scheme name is case-insensitive.
    public static func parse(authorization header: String?) -> Result<BasicCredentials, Problem> {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return .failure(.missingHeader) }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return .failure(.notBasicScheme) }
        var encoded = parts[1].trimmingCharacters(in: .whitespaces)
        // Accept unpadded base64 as browsers and curl never omit padding but hand-written clients do.
        if encoded.count % 4 != 0 { encoded += String(repeating: "=", count: 4 - encoded.count % 4) }
        guard let data = Data(base64Encoded: encoded), let decoded = String(data: data, encoding: .utf8) else {
            return .failure(.invalidBase64)
        }
        guard let colon = decoded.firstIndex(of: ":") else { return .failure(.noColon) }
        let user = String(decoded[..<colon])
        let password = String(decoded[decoded.index(after: colon)...])
        guard !user.isEmpty, !password.isEmpty else { return .failure(.emptyUserOrPassword) }
        return .success(BasicCredentials(user: user, password: password))
    }

    /// Compares two secrets in time that depends only on their lengths, never on where they first differ.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        if x.count != y.count { difference |= 1 }
        let n = max(x.count, y.count)
        for i in 0..<n {
            let p = i < x.count ? x[i] : 0
            let q = i < y.count ? y[i] : 0
            difference |= p ^ q
        }
        return difference == 0
    }
}
