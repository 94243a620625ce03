/// Which page of the stored announcements `GET /__spotcheck/state` asks for: newest first, at most `limit` of them and
/// about `maxBytes` of announcement JSON, starting below `cursor`.
///
/// The byte budget is what keeps one page small whatever the announcements weigh: 20,000 announcements of 100 KB
/// once made a single 2 GB answer.
public struct StatePageRequest: Sendable, Equatable {
    /// The most announcements on the page.
    public var limit: Int
    /// The most announcement bytes on the page; a page always holds at least one announcement, so paging moves on.
    public var maxBytes: Int
    /// The `next` value of the previous page; nil starts with the newest.
    public var cursor: Int?

    /// The default count per page, as before paging.
    public static let defaultLimit = 1000
    /// The default byte budget of a page.
    public static let defaultMaxBytes = 4 * 1024 * 1024
    /// The largest byte budget a request may ask for.
    public static let maxMaxBytes = 64 * 1024 * 1024

    /// A page request; `limit` and `maxBytes` are clamped to what the server allows.
    public init(limit: Int = Self.defaultLimit, maxBytes: Int = Self.defaultMaxBytes, cursor: Int? = nil) {
        self.limit = max(0, limit)
        self.maxBytes = min(max(1, maxBytes), Self.maxMaxBytes)
        self.cursor = cursor
    }

    /// The page a query string asks for: `limit`, `maxBytes`, `cursor`.
    init(query: String?) {
        let q = AdminQuery(query)
        self.init(limit: q.int("limit") ?? Self.defaultLimit, maxBytes: q.int("maxBytes") ?? Self.defaultMaxBytes,
                  cursor: q.int("cursor"))
    }
}
