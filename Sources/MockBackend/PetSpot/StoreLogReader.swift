import ContractKit
import Foundation
import NIOCore

/// Reads and writes the lines of a data directory's `announcements.log`.
///
/// Each line is one JSON object: `{"op": "put", "id", "password", "created", "announcement": {...}}`,
/// `{"op": "photo", "id", "file", "announcement": {...}}`, `{"op": "delete", "id"}` or `{"op": "reset"}`.
enum StoreLogReader {
    /// One log line: the fields in order, then the announcement's JSON bytes as they are, then a newline.
    static func line(_ fields: JSONObject, announcement: ByteBuffer?) -> [UInt8] {
        var object = fields
        if announcement != nil { object["announcement"] = .null }
        var bytes = JSONValue.object(object).serializedBytes()
        if let announcement {
            // Replace the `null` placeholder (the last value) with the stored bytes, so nothing is re-rendered.
            bytes.removeLast("null}".utf8.count)
            bytes += announcement.readableBytesView
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The changes in the log and the length of its intact part; a torn tail (unreadable lines at the end) is left out.
    static func read(log: URL, photos: URL) throws(StoreDataDirectoryError) -> (changes: [StoreChange], goodLength: Int) {
        let data: [UInt8]
        do { data = Array(try Data(contentsOf: log)) } catch {
            throw StoreDataDirectoryError(path: log.path, reason: "cannot read the log (\(error.localizedDescription))")
        }
        var changes: [StoreChange] = []
        var goodLength = 0
        var start = 0
        var lineNumber = 0
        var badLine: (number: Int, reason: String)?
        while start < data.count {
            lineNumber += 1
            guard let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                // No newline: the write of the last record was cut short.
                break
            }
            let lineBytes = Array(data[start..<end])
            switch parse(lineBytes, photos: photos) {
            case .success(let change):
                if let badLine {
                    throw StoreDataDirectoryError(path: log.path, reason: "line \(badLine.number) cannot be read (\(badLine.reason)) but later lines can; "
                        + "the log is damaged and is left untouched")
                }
                changes.append(change)
                goodLength = end + 1
            case .failure(let problem):
                if case .missingPhoto = problem.kind {
                    throw StoreDataDirectoryError(path: log.path, reason: "line \(lineNumber): \(problem.reason)")
                }
                if badLine == nil { badLine = (lineNumber, problem.reason) }
            }
            start = end + 1
        }
        return (changes, goodLength)
    }

    private struct Problem: Error {
        enum Kind { case unreadable, missingPhoto }
        let kind: Kind
        let reason: String
    }

    private static func parse(_ bytes: [UInt8], photos: URL) -> Result<StoreChange, Problem> {
        func bad(_ reason: String) -> Result<StoreChange, Problem> { .failure(Problem(kind: .unreadable, reason: reason)) }
        guard let value = try? JSONValue(parsing: bytes), let object = value.objectValue, let op = object["op"]?.stringValue else {
            return bad("not a JSON record with an \"op\"")
        }
        /// Names the keys a record of this op lacks (or holds with the wrong type), e.g. `a put lacks /password (a string)`.
        func lacking(_ keys: [(key: String, present: Bool, what: String)]) -> Result<StoreChange, Problem> {
            let missing = keys.filter { !$0.present }.map { "/\($0.key) (\($0.what))" }
            return bad("a \(op) record lacks \(missing.joined(separator: ", "))")
        }
        let id = object["id"]?.stringValue
        let announcement = object["announcement"].map { ByteBuffer(bytes: $0.serializedBytes()) }
        switch op {
        case "put":
            guard let id, let announcement, let password = object["password"]?.stringValue else {
                return lacking([("id", id != nil, "a string"), ("password", object["password"]?.stringValue != nil, "a string"),
                                ("announcement", announcement != nil, "an object")])
            }
            return .success(.put(id: id, json: announcement, password: password, created: object["created"]?.boolValue ?? true))
        case "photo":
            guard let id, let announcement, let file = object["file"]?.stringValue, !file.contains("/") else {
                let file = object["file"]?.stringValue
                return lacking([("id", id != nil, "a string"), ("file", file.map { !$0.contains("/") } ?? false, "a file name without /"),
                                ("announcement", announcement != nil, "an object")])
            }
            let url = photos.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url), let type = ImageType.detect(data) else {
                return .failure(Problem(kind: .missingPhoto, reason: "the photo \(url.path) is missing or not an image"))
            }
            return .success(.photo(id: id, photo: AnnouncementStore.Photo(bytes: ByteBuffer(bytes: data), type: type), json: announcement))
        case "delete":
            guard let id else { return lacking([("id", false, "a string")]) }
            return .success(.delete(id: id))
        case "reset":
            return .success(.reset)
        default:
            return bad("unknown op \"\(op)\"")
        }
    }
}
