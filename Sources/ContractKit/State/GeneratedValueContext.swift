import Foundation

/// What a generated value is checked against besides itself: the server's clock, the answer it came in, the token
/// declaration.
public struct GeneratedValueContext: Sendable {
    /// The server's time when it answered: its `Date` header, else when the answer arrived.
    public var serverTime: Date
    /// The other members of the object the value came in (a token's claims must equal them).
    public var record: JSONObject
    /// How the contract says `jwt-hs256` fields are made (claims, lifetime, the secret when it is stated).
    public var token: TokenDeclaration?
    /// How far a made-up time may be from `serverTime`: minutes, so a slow or busy machine never fails the check, while a
    /// time an hour or a day off (another time zone, a stale clock, a cached value) does.
    public var tolerance: TimeInterval

    /// The default tolerance, five minutes.
    public static let defaultTolerance: TimeInterval = 300

    /// A context; `serverTime` defaults to now.
    public init(serverTime: Date = Date(), record: JSONObject = JSONObject(), token: TokenDeclaration? = nil,
                tolerance: TimeInterval = GeneratedValueContext.defaultTolerance) {
        self.serverTime = serverTime
        self.record = record
        self.token = token
        self.tolerance = tolerance
    }

    /// A context whose server time is the answer's `Date` header (RFC 9110 IMF-fixdate) when it has a readable one,
    /// else `received`.
    public init(dateHeader: String?, received: Date = Date(), record: JSONObject = JSONObject(), token: TokenDeclaration? = nil) {
        self.init(serverTime: dateHeader.flatMap(HTTPDate.parse) ?? received, record: record, token: token)
    }
}
