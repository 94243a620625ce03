
/// One change to the record store, as the data directory logs it and replays it at start.
///
/// `collection` names the record's collection; nil (a directory written before collections were named) is the
/// primary collection, the one collection of those versions.
public enum StoreChange: Sendable {
    /// A record stored (created through the API when `created`, else loaded as a fixture), with its JSON and secret.
    case put(collection: String?, id: String, json: [UInt8], secret: String, created: Bool)
    /// A file stored for a record, with the record's JSON after the change.
    case photo(collection: String?, id: String, photo: RecordStore.Photo, json: [UInt8])
    /// A record deleted.
    case delete(collection: String?, id: String)
    /// Back to the start state: the fixtures only.
    case reset
    /// Everything removed, fixtures included: a snapshot starts with it and then lists the whole state.
    case clear
}
