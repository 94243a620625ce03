/// Which photo file holds each announcement's current photo, so a snapshot can name files instead of copying bytes
/// and a compaction knows which files nothing needs any more.
struct PhotoFileIndex {
    private(set) var files: [String: String] = [:]

    /// The file of an announcement's photo, if it is on disk.
    subscript(id: String) -> String? { files[id] }

    /// Every file some announcement still needs.
    var referenced: Set<String> { Set(files.values) }

    /// Follows one change; `file` is where a photo change's photo was written.
    mutating func apply(_ change: StoreChange, file: String?) {
        switch change {
        case .put(let id, _, _, _), .delete(let id): files[id] = nil
        case .photo(let id, _, _): files[id] = file
        case .reset, .clear: files = [:]
        }
    }

    /// Records that `id`'s photo is in `file`.
    mutating func set(_ id: String, file: String) { files[id] = file }

    /// A name inside the photo folder, never a path that leaves it.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.hasPrefix(".")
    }
}
