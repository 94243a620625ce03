import NIOCore

/// One change to the announcement store, as the data directory logs it and replays it at start.
public enum StoreChange: Sendable {
    /// An announcement stored (created through the API when `created`, else loaded as a fixture), with its JSON and password.
    case put(id: String, json: ByteBuffer, password: String, created: Bool)
    /// A photo stored for an announcement, with the announcement's JSON after the change.
    case photo(id: String, photo: AnnouncementStore.Photo, json: ByteBuffer)
    /// An announcement deleted.
    case delete(id: String)
    /// Back to the start state: the fixtures only.
    case reset
    /// Everything removed, fixtures included: a snapshot starts with it and then lists the whole state.
    case clear
}
