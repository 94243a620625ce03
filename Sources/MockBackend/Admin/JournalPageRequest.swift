/// Which page of the journal `GET /__spotcheck/journal` asks for: entry summaries newest first, at most `limit` of them
/// and at most `maxBytes` of JSON, starting below `cursor` (a sequence number).
///
/// The byte budget bounds what one read costs the server whatever the journal holds: encoding every entry with its
/// bodies once made 100 MiB per request (1,000 entries with 64 KiB bodies), and any page could ask for it with an `<img>`.
public struct JournalPageRequest: Sendable, Equatable {
    /// The most entries on the page.
    public var limit: Int
    /// The most bytes of the page's JSON; a page always holds at least one entry, so paging moves on.
    public var maxBytes: Int
    /// The `next` value of the previous page: only entries with a smaller sequence number; nil starts with the newest.
    public var cursor: Int?

    /// The default count per page: a whole default journal.
    public static let defaultLimit = 1000
    /// The default byte budget of a page.
    public static let defaultMaxBytes = 1024 * 1024
    /// The largest byte budget a request may ask for.
    public static let maxMaxBytes = 4 * 1024 * 1024

    /// A page request; `limit` and `maxBytes` are clamped to what the server allows.
    public init(limit: Int = Self.defaultLimit, maxBytes: Int = Self.defaultMaxBytes, cursor: Int? = nil) {
        self.limit = max(1, limit)
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
