import ContractKit
import Foundation

/// Reads and writes the records of a data directory's log and snapshot files.
///
/// A record is one line: a JSON object, a tab, its CRC-32C as 8 hex digits, and a newline. The objects are
/// `{"op": "put", "collection", "id", "secret", "created", "record": {...}}`, `{"op": "photo", "collection", "id", "file", "record": {...}}`,
/// `{"op": "delete", "collection", "id"}`, `{"op": "reset"}`, and in a snapshot `{"op": "snapshot"}` first and `{"op": "end", "records": N}` last.
/// Store versions 1 and 2 (before collections were named) wrote `password` for `secret`, `announcement` for `record`
/// and no `collection` (the primary collection); they are read as they are. Version 1 logs hold the bare JSON line.
enum StoreLogReader {
    /// What a log or snapshot file holds.
    struct Contents {
        /// The changes, oldest first; a snapshot's start with `.clear`.
        var changes: [StoreChange] = []
        /// The length of the part made of complete, intact records.
        var goodLength = 0
        /// Where a torn last record (bytes without a line end) starts, if there is one; it is not in `changes`.
        var tornTail: Int?
        /// The photo file each record's current photo is in, after these changes.
        var photoFiles = PhotoFileIndex()
    }

    /// One record: the fields in order, then the stored record's JSON bytes as they are, then the checksum and a newline.
    static func line(_ fields: JSONObject, record: [UInt8]?) -> [UInt8] {
        var object = fields
        if record != nil { object["record"] = .null }
        var bytes = JSONValue.object(object).serializedBytes()
        if let record {
            // Replace the `null` placeholder (the last value) with the stored bytes, so nothing is re-rendered.
            bytes.removeLast("null}".utf8.count)
            bytes += record
            bytes.append(UInt8(ascii: "}"))
        }
        let checksum = CRC32C.hex(bytes)
        bytes.append(UInt8(ascii: "\t"))
        bytes += checksum
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The record for a change whose photo (if any) is in the file `photoFile`.
    static func line(for change: StoreChange, photoFile: String?) -> [UInt8] {
        switch change {
        case .put(let collection, let id, let json, let secret, let created):
            line(["op": "put", "collection": collection.map(JSONValue.string) ?? .null, "id": .string(id), "secret": .string(secret),
                  "created": .bool(created)], record: json)
        case .photo(let collection, let id, _, let json):
            line(["op": "photo", "collection": collection.map(JSONValue.string) ?? .null, "id": .string(id), "file": .string(photoFile ?? "")],
                 record: json)
        case .delete(let collection, let id):
            line(["op": "delete", "collection": collection.map(JSONValue.string) ?? .null, "id": .string(id)], record: nil)
        case .reset:
            line(["op": "reset"], record: nil)
        case .clear:
            line(["op": "snapshot"], record: nil)
        }
    }

    /// Reads a log (or, with `snapshot`, a snapshot) up to `limit` bytes.
    ///
    /// Only a torn tail (an incomplete last record without its line end, what a crash mid-write leaves) is set aside;
    /// any complete record that fails its checksum or cannot be read is damage and throws, naming the file, the line
    /// and the byte offset. Nothing is written.
    static func read(_ url: URL, photos: URL, checksums required: Bool, snapshot: Bool = false, limit: Int? = nil,
                     photoFiles: PhotoFileIndex = PhotoFileIndex()) throws(StoreDataDirectoryError) -> Contents
    {
        var data = try DurableFile.read(url)
        if let limit, limit < data.count { data.removeLast(data.count - limit) }
        var contents = Contents()
        contents.photoFiles = photoFiles
        var start = 0
        var lineNumber = 0
        var ended = false
        func damage(_ reason: String, at offset: Int) -> StoreDataDirectoryError {
            StoreDataDirectoryError(path: url.path, reason: "line \(lineNumber) (byte offset \(offset)) is damaged: \(reason). "
                + "The data directory is left untouched; restore the file from a backup or move the directory away to start afresh")
        }
        while start < data.count {
            lineNumber += 1
            guard let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                if snapshot { throw damage("the snapshot ends inside a record (it was renamed complete, so it was cut short later)", at: start) }
                contents.tornTail = start
                break
            }
            if ended { throw damage("a record after the snapshot's end record", at: start) }
            let record: ArraySlice<UInt8>
            switch verify(data[start..<end], checksumRequired: required) {
            case .success(let json): record = json
            case .failure(let problem): throw damage(problem.reason, at: start)
            }
            switch parse(Array(record), photos: photos, snapshot: snapshot, first: lineNumber == 1) {
            case .success(.change(let change, let file)):
                contents.changes.append(change)
                contents.photoFiles.apply(change, file: file)
            case .success(.end(let count)):
                guard count == contents.changes.count - 1 else {
                    throw damage("the end record counts \(count) records but the snapshot holds \(contents.changes.count - 1)", at: start)
                }
                ended = true
            case .failure(let problem):
                if case .missingPhoto = problem.kind {
                    throw StoreDataDirectoryError(path: url.path, reason: "line \(lineNumber) (byte offset \(start)): \(problem.reason)")
                }
                throw damage(problem.reason, at: start)
            }
            contents.goodLength = end + 1
            start = end + 1
        }
        if snapshot, !ended {
            throw StoreDataDirectoryError(path: url.path, reason: "the snapshot has no end record (\(lineNumber) lines); "
                + "it is damaged and the data directory is left untouched")
        }
        return contents
    }

    private struct Problem: Error {
        enum Kind { case unreadable, missingPhoto }
        let kind: Kind
        let reason: String
        init(_ reason: String, kind: Kind = .unreadable) {
            self.kind = kind
            self.reason = reason
        }
    }

    private enum Record {
        case change(StoreChange, file: String?)
        case end(records: Int)
    }

    /// The JSON part of a record whose checksum matches (or, in a version 1 log, of a bare JSON line).
    private static func verify(_ line: ArraySlice<UInt8>, checksumRequired: Bool) -> Result<ArraySlice<UInt8>, Problem> {
        let tab = line.count >= 9 ? line.index(line.endIndex, offsetBy: -9) : nil
        guard let tab, line[tab] == UInt8(ascii: "\t") else {
            if !checksumRequired, line.last == UInt8(ascii: "}") { return .success(line) }
            return .failure(Problem("the record has no checksum (expected a tab and 8 hex digits before the line end)"))
        }
        let stored = line[(tab + 1)...]
        let json = line[..<tab]
        let computed = CRC32C.hex(json)
        guard stored.elementsEqual(computed) else {
            return .failure(Problem("checksum mismatch (the record says \(String(decoding: stored, as: UTF8.self)), "
                + "its bytes give \(String(decoding: computed, as: UTF8.self))): the record changed after it was written"))
        }
        return .success(json)
    }

    private static func parse(_ bytes: [UInt8], photos: URL, snapshot: Bool, first: Bool) -> Result<Record, Problem> {
        func bad(_ reason: String) -> Result<Record, Problem> { .failure(Problem(reason)) }
        guard let value = try? JSONValue(parsing: bytes), let object = value.objectValue, let op = object["op"]?.stringValue else {
            return bad("not a JSON record with an \"op\"")
        }
        if snapshot, first != (op == "snapshot") {
            return bad(first ? "a snapshot must start with {\"op\":\"snapshot\"}" : "a second \"snapshot\" record")
        }
        /// Names the keys a record of this op lacks (or holds with the wrong type), e.g. `a put lacks /password (a string)`.
        func lacking(_ keys: [(key: String, present: Bool, what: String)]) -> Result<Record, Problem> {
            let missing = keys.filter { !$0.present }.map { "/\($0.key) (\($0.what))" }
            return bad("a \(op) record lacks \(missing.joined(separator: ", "))")
        }
        let id = object["id"]?.stringValue
        // Versions 1 and 2 named the record `announcement` and the secret `password`, and had one collection.
        let recordKey = object["record"] != nil ? "record" : object["announcement"] != nil ? "announcement" : "record"
        let secretKey = object["secret"] != nil ? "secret" : object["password"] != nil ? "password" : "secret"
        let collection = object["collection"]?.stringValue
        if let value = object["collection"], collection == nil, !value.isNull { return bad("/collection is not a string") }
        let record = object[recordKey].flatMap { $0.objectValue != nil ? [UInt8]($0.serializedBytes()) : nil }
        switch op {
        case "put":
            guard let id, let record, let secret = object[secretKey]?.stringValue else {
                return lacking([("id", id != nil, "a string"), (secretKey, object[secretKey]?.stringValue != nil, "a string"),
                                (recordKey, record != nil, "an object")])
            }
            return .success(.change(.put(collection: collection, id: id, json: record, secret: secret, created: object["created"]?.boolValue ?? true),
                                    file: nil))
        case "photo":
            let file = object["file"]?.stringValue
            guard let id, let record, let file, PhotoFileIndex.isPlainName(file) else {
                return lacking([("id", id != nil, "a string"), ("file", file.map(PhotoFileIndex.isPlainName) ?? false, "a file name without /"),
                                (recordKey, record != nil, "an object")])
            }
            let url = photos.appendingPathComponent(file)
            let data: [UInt8]
            do { data = try DurableFile.read(url) } catch {
                return .failure(Problem("the photo \(url.path) cannot be used: \(error.reason)", kind: .missingPhoto))
            }
            guard let type = ImageType.detect(Data(data)) else {
                return .failure(Problem("the photo \(url.path) is not an image", kind: .missingPhoto))
            }
            return .success(.change(.photo(collection: collection, id: id, photo: RecordStore.Photo(bytes: [UInt8](data), type: type),
                                           json: record), file: file))
        case "delete":
            guard let id else { return lacking([("id", false, "a string")]) }
            return .success(.change(.delete(collection: collection, id: id), file: nil))
        case "reset":
            return .success(.change(.reset, file: nil))
        case "snapshot" where snapshot:
            return .success(.change(.clear, file: nil))
        case "end" where snapshot:
            guard let count = object["records"]?.intValue else { return lacking([("records", false, "a number")]) }
            return .success(.end(records: count))
        default:
            return bad("unknown op \"\(op)\"")
        }
    }
}
