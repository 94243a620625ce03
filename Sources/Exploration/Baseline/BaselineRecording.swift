import ContractKit
import Foundation
import MockBackend
import ScenarioEngine

/// A known-good server's answers to one seeded exploration (`verify --record-baseline FILE`), replayed later as the
/// baseline a candidate is compared with (`verify --baseline FILE`), for teams that cannot run two versions at once.
///
/// An answer is found again by its request, not by its position: the key is the request as sent with every value a
/// run made fresh (its unique stand-ins, run-tagged keys, the id nobody holds, the multipart boundary) replaced by its
/// number, counted in the order the values first appear, so a later run, whose fresh values are its own, asks for the
/// same keys. When an answer is replayed, each recorded fresh value in it becomes this run's value of the same number,
/// so an echoed email or a stored chip number compares equal. Identical requests are answered in the order recorded.
public actor BaselineRecording {
    /// One recorded answer.
    struct Entry: Sendable {
        /// The hash of the request with its fresh values masked.
        var key: String
        /// The request as a report shows it (for a person reading the file).
        var request: String
        /// The fresh values the request was the first to carry, in the order they were numbered.
        var fresh: [String]
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data
    }

    /// What a recording was made with; a replay that differs would ask for requests the recording never saw.
    public struct Settings: Sendable, Equatable {
        /// The exploration's seed.
        public var seed: UInt64
        /// Its case budget (nil: the default).
        public var cases: Int?
        /// Whether walks ran.
        public var walks: Bool
        /// The server recorded, as the user named it.
        public var server: String

        /// Settings.
        public init(seed: UInt64, cases: Int?, walks: Bool, server: String) {
            self.seed = seed
            self.cases = cases
            self.walks = walks
            self.server = server
        }
    }

    /// The first line a recording file holds as its `format`.
    public static let format = "spotcheck-baseline-recording/1"

    /// What the recording was made with.
    public nonisolated let settings: Settings
    private var entries: [Entry] = []
    /// Replay: the entries of each key still to give, in recorded order.
    private var queues: [String: [Int]] = [:]
    /// Replay: requests the recording held no answer to, as shown to a person.
    private(set) var misses: [String] = []
    /// This run's fresh values by number, and each value's number (its upper- and lower-case forms too, which a walk
    /// sends to check case).
    private var current: [String] = []
    private var numbers: [String: Int] = [:]
    /// `numbers` longest first, the order a key masks in; kept sorted as values are numbered, not sorted per request.
    private var masks: [(value: String, number: Int)] = []
    /// Replay: recorded value → this run's, longest first, for every number both runs have reached.
    private var substitutions: [(old: String, new: String)] = []
    /// Replay: the recorded run's fresh values by number.
    private var recorded: [String] = []
    /// Values shorter than this are never masked: a shorter text would be replaced inside unrelated ones (a request
    /// carrying one is then not found, and not compared).
    static let shortestMasked = 1

    /// An empty recording about to be made.
    public init(recording settings: Settings) {
        self.settings = settings
    }

    /// A recording read from `data`; throws naming `file` and the member at fault.
    public init(reading data: Data, file: String) throws(BaselineRecordingError) {
        func fail(_ pointer: String, _ expected: String) -> BaselineRecordingError {
            BaselineRecordingError(file: file, pointer: pointer, message: "expected \(expected)")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: data) } catch {
            throw BaselineRecordingError(file: file, pointer: "", message: "not JSON: \(error)")
        }
        guard root["format"]?.stringValue == Self.format else {
            throw fail("/format", "\"\(Self.format)\" (a file written by verify --record-baseline)")
        }
        guard let seedText = root["seed"]?.stringValue, let seed = UInt64(seedText) else { throw fail("/seed", "the seed as a string of digits") }
        let cases: Int?
        switch root["cases"] {
        case nil, .null?: cases = nil
        case .number(let n)? where n >= 0 && n == n.rounded() && n < 1e9: cases = Int(n)
        default: throw fail("/cases", "a whole number of cases or null")
        }
        guard case .bool(let walks)? = root["walks"] else { throw fail("/walks", "true or false") }
        guard let server = root["server"]?.stringValue else { throw fail("/server", "the recorded server's URL") }
        settings = Settings(seed: seed, cases: cases, walks: walks, server: server)
        guard let list = root["answers"]?.arrayValue else { throw fail("/answers", "an array of recorded answers") }
        for (index, item) in list.enumerated() {
            let at = "/answers/\(index)"
            guard let key = item["key"]?.stringValue else { throw fail(at + "/key", "the request's key") }
            guard case .number(let status)? = item["status"], (100...599).contains(status), status == status.rounded() else {
                throw fail(at + "/status", "an HTTP status from 100 to 599")
            }
            guard let fresh = item["fresh"]?.arrayValue?.compactMap(\.stringValue), fresh.count == item["fresh"]?.arrayValue?.count else {
                throw fail(at + "/fresh", "an array of strings")
            }
            var headers: [(name: String, value: String)] = []
            for (h, pair) in (item["headers"]?.arrayValue ?? []).enumerated() {
                guard let name = pair.arrayValue?.first?.stringValue, let value = pair.arrayValue?.last?.stringValue, pair.arrayValue?.count == 2 else {
                    throw fail("\(at)/headers/\(h)", "a [name, value] pair of strings")
                }
                headers.append((name, value))
            }
            guard let bodyText = item["body"]?.stringValue, let body = Data(base64Encoded: bodyText) else {
                throw fail(at + "/body", "the body, base64-encoded")
            }
            entries.append(Entry(key: key, request: item["request"]?.stringValue ?? "", fresh: fresh, status: Int(status), headers: headers, body: body))
            queues[key, default: []].append(index)
            recorded += fresh
        }
    }

    /// How many answers are recorded.
    public var count: Int { entries.count }

    /// The requests a replay found no answer to, as a report shows them.
    public var unanswered: [String] { misses }

    /// Keeps `answer` as the answer to `request`.
    func record(_ request: RenderedRequest, _ answer: ExactHTTPClient.Answer) {
        let new = number(request.fresh)
        entries.append(Entry(key: key(request), request: String(request.display.prefix(200)), fresh: new, status: answer.status,
                             headers: answer.headers, body: answer.body))
    }

    /// Numbers the values of `fresh` not seen before, in order; returns them.
    private func number(_ fresh: [String]) -> [String] {
        var new: [String] = []
        for value in fresh where value.count >= Self.shortestMasked && numbers[value] == nil {
            let index = current.count
            current.append(value)
            new.append(value)
            for form in [value, value.uppercased(), value.lowercased()] where numbers[form] == nil {
                numbers[form] = index
                masks.append((form, index))
            }
            if index < recorded.count, recorded[index] != value {
                let old = recorded[index]
                substitutions.append((old, value))
                if old.uppercased() != old { substitutions.append((old.uppercased(), value.uppercased())) }
                if old.lowercased() != old { substitutions.append((old.lowercased(), value.lowercased())) }
            }
        }
        if !new.isEmpty {
            masks.sort { ($0.value.count, $0.value) > ($1.value.count, $1.value) }
            substitutions.sort { $0.old.count > $1.old.count }
        }
        return new
    }

    /// The recorded answer to `request`, with the recorded fresh values turned into this request's; nil (and counted)
    /// when the recording holds none.
    func answer(_ request: RenderedRequest) -> ExactHTTPClient.Answer? {
        _ = number(request.fresh)
        let key = key(request)
        guard var queue = queues[key], let index = queue.first else {
            misses.append(String(request.display.prefix(200)))
            return nil
        }
        // The last answer to a request stays, for a read repeated more often than recorded.
        if queue.count > 1 {
            queue.removeFirst()
            queues[key] = queue
        }
        let entry = entries[index]
        // Every fresh value numbered so far: a read long after the create still shows the record's values.
        let pairs = substitutions
        func substitute(_ text: String) -> String {
            pairs.reduce(text) { text, pair in
                let (old, new) = pair
                guard text.contains(old) else { return text }
                return Self.isDistinctive(old) ? text.replacingOccurrences(of: old, with: new)
                    : text.replacingOccurrences(of: "\"\(old)\"", with: "\"\(new)\"")
            }
        }
        let body = pairs.isEmpty ? entry.body : Data(substitute(String(decoding: entry.body, as: UTF8.self)).utf8)
        return ExactHTTPClient.Answer(status: entry.status, headers: entry.headers.map { ($0.name, substitute($0.value)) }, body: body)
    }

    /// Whether `value` is long enough to be replaced wherever it stands; a shorter one is replaced only as a whole JSON
    /// string, never inside another text (a three-letter chip number inside an id).
    static func isDistinctive(_ value: String) -> Bool { value.count >= 16 }

    /// The file's bytes: JSON, one answer per line.
    public func serialized() -> Data {
        var text = "{\"format\": \(JSONValue.string(Self.format).serialized()), \"server\": \(JSONValue.string(settings.server).serialized()), "
        text += "\"seed\": \"\(settings.seed)\", \"cases\": \(settings.cases.map(String.init) ?? "null"), \"walks\": \(settings.walks),\n \"answers\": ["
        for (index, entry) in entries.enumerated() {
            let item: JSONValue = [
                "key": .string(entry.key), "request": .string(entry.request), "fresh": .array(entry.fresh.map(JSONValue.string)),
                "status": .number(Double(entry.status)),
                "headers": .array(entry.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "body": .string(entry.body.base64EncodedString()),
            ]
            text += (index == 0 ? "\n  " : ",\n  ") + item.serialized()
        }
        text += "\n]}\n"
        return Data(text.utf8)
    }

    /// The request's key: method, path, query, headers (sorted, lengths left out) and body, each fresh value numbered so
    /// far masked by its number (a short one only where the request made or carries it), hashed (FNV-1a) with the
    /// masked length.
    private func key(_ request: RenderedRequest) -> String {
        var text = request.method + " " + request.path + "?" + request.query.map { $0.name + "=" + $0.value }.joined(separator: "&") + "\n"
        for (name, value) in request.headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) where name.lowercased() != "content-length" {
            text += name.lowercased() + ": " + value + "\n"
        }
        text += "\n" + String(decoding: request.body, as: UTF8.self)
        // A short value only where this request made or carries it: a stand-in of one case may equal, by chance in one
        // run and not the other, a literal another case sends (`"m🐶"` as a login's email), whose key must not change.
        let own = Set((request.fresh + request.carried).flatMap { [$0, $0.uppercased(), $0.lowercased()] })
        // Longest first, so a value inside another (a chip number in an email) never splits it.
        for (value, index) in masks where text.contains(value) {
            if Self.isDistinctive(value) {
                text = text.replacingOccurrences(of: value, with: "{fresh \(index)}")
            } else if own.contains(value) {
                text = text.replacingOccurrences(of: "\"\(value)\"", with: "\"{fresh \(index)}\"")
            }
        }
        return String(Shard.fnv1a(text), radix: 16) + "-" + String(text.utf8.count)
    }
}

/// A recording file that cannot be read: which file, which member, what was expected.
public struct BaselineRecordingError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// The JSON pointer of the member at fault ("" for the whole file).
    public let pointer: String
    /// What is wrong.
    public let message: String

    /// `file:pointer: message`.
    public var description: String { "\(file):\(pointer.isEmpty ? "" : pointer + ":") \(message)" }
}
