/// Which photo file holds each record's current photo, so a snapshot can name files instead of copying bytes and a
/// compaction knows which files nothing needs any more. Records are named by collection and id: two collections may
/// use the same id.
struct PhotoFileIndex {
    private(set) var files: [String: String] = [:]

    /// The file of a record's photo, if it is on disk; a directory of an earlier version names it by id alone.
    subscript(collection: String?, id: String) -> String? { files[Self.name(collection, id)] ?? files[id] }

    /// Every file some record still needs.
    var referenced: Set<String> { Set(files.values) }

    /// Follows one change; `file` is where a photo change's photo was written.
    mutating func apply(_ change: StoreChange, file: String?) {
        switch change {
        case .put(let collection, let id, _, _, _), .delete(let collection, let id): files[Self.name(collection, id)] = nil
        case .photo(let collection, let id, _, _): files[Self.name(collection, id)] = file
        case .reset, .clear: files = [:]
        }
    }

    /// The index key: the id alone in the primary collection (nil), as directories of earlier versions name it.
    private static func name(_ collection: String?, _ id: String) -> String {
        collection.map { "\($0)/\(id)" } ?? id
    }

    /// A name inside the photo folder, never a path that leaves it.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.hasPrefix(".")
    }
}
