/// A named generator for a server-owned field; the algorithms themselves are written once in the executor.
public enum StateGenerator: String, Sendable, CaseIterable {
    /// A random version 4 UUID in lower case.
    case uuidV4 = "uuid-v4"
    /// Six decimal digits, 100000...999999.
    case digits6 = "digits-6"
    /// The current time as ISO 8601 with milliseconds, `2025-11-19T10:00:00.000Z`.
    case nowISOMilliseconds = "now-iso-ms"
    /// A JSON Web Token signed with HMAC-SHA256 as the declaration's `token` says.
    case jwtHS256 = "jwt-hs256"

    /// Every name, for lint messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
