import ContractModel
/// What one paged admin read may cost: its default count, the smallest count, and its default and largest byte budgets.
public protocol AdminPageBounds: Sendable {
    /// The count per page when the request names none.
    static var defaultLimit: Int { get }
    /// The smallest count a request may ask for.
    static var minimumLimit: Int { get }
    /// The byte budget when the request names none.
    static var defaultMaxBytes: Int { get }
    /// The largest byte budget a request may ask for.
    static var maxMaxBytes: Int { get }
}

/// Which page a paged admin read asks for: newest first, at most `limit` items and at most `maxBytes` of JSON,
/// starting below `cursor`.
///
/// The byte budget bounds what one read costs the server whatever it holds: 20,000 records of 100 KB once made a
/// single 2 GB state answer, and a journal of 1,000 entries with 64 KiB bodies 100 MiB per read, which any page could
/// ask for with an `<img>`.
public struct AdminPageRequest<Bounds: AdminPageBounds>: Sendable, Equatable {
    /// The most items on the page.
    public var limit: Int
    /// The most bytes on the page; a page always holds at least one item, so paging moves on.
    public var maxBytes: Int
    /// The `next` value of the previous page: only items below it; nil starts with the newest.
    public var cursor: Int?

    /// The count per page when the request names none.
    public static var defaultLimit: Int { Bounds.defaultLimit }
    /// The byte budget when the request names none.
    public static var defaultMaxBytes: Int { Bounds.defaultMaxBytes }
    /// The largest byte budget a request may ask for.
    public static var maxMaxBytes: Int { Bounds.maxMaxBytes }

    /// A page request; `limit` and `maxBytes` are clamped to what the server allows.
    public init(limit: Int = Bounds.defaultLimit, maxBytes: Int = Bounds.defaultMaxBytes, cursor: Int? = nil) {
        self.limit = max(Bounds.minimumLimit, limit)
        self.maxBytes = min(max(1, maxBytes), Bounds.maxMaxBytes)
        self.cursor = cursor
    }

    /// The page a query string asks for: `limit`, `maxBytes`, `cursor`.
    init(query: String?) {
        let q = AdminQuery(query)
        self.init(limit: q.int("limit") ?? Bounds.defaultLimit, maxBytes: q.int("maxBytes") ?? Bounds.defaultMaxBytes,
                  cursor: q.int("cursor"))
    }
}

/// The bounds of `GET /__spotcheck/state`: stored records.
public enum StatePageBounds: AdminPageBounds {
    public static let defaultLimit = 1000
    public static let minimumLimit = 0
    public static let defaultMaxBytes = 4 * 1024 * 1024
    public static let maxMaxBytes = 64 * 1024 * 1024
}

/// The bounds of `GET /__spotcheck/journal`: entry summaries (bodies come one exchange at a time).
public enum JournalPageBounds: AdminPageBounds {
    public static let defaultLimit = 1000
    public static let minimumLimit = 1
    public static let defaultMaxBytes = 1024 * 1024
    public static let maxMaxBytes = 4 * 1024 * 1024
}

/// A page of stored records (`GET /__spotcheck/state`).
public typealias StatePageRequest = AdminPageRequest<StatePageBounds>
/// A page of journal summaries (`GET /__spotcheck/journal`).
public typealias JournalPageRequest = AdminPageRequest<JournalPageBounds>
