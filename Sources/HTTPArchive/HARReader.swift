import ContractKit
import Foundation

/// Reads HAR 1.2 archives as Chrome, Firefox, Charles and Proxyman write them.
///
/// Tolerant where those tools differ (optional members left out, `postData.params` instead of `text`, base64 bodies,
/// timings of -1, `_`-prefixed extras), strict where an entry would be misread: a missing method, URL or status
/// is an error naming the entry.
public enum HARReader {
    /// Parses `data` read from `file` (the name is only used in errors).
    public static func read(_ data: Data, file: String) throws(HARReadError) -> HARLog {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            throw syntaxError(data, file: file, error)
        }
        guard let log = root["log"]?.objectValue else {
            throw HARReadError(file: file, location: "/log", message: "not a HAR archive: expected an object with a \"log\" member")
        }
        guard let list = log["entries"]?.arrayValue else {
            throw HARReadError(file: file, location: "/log/entries", message: "expected the list of entries")
        }
        let creator = HARCreator(name: log["creator"]?["name"]?.stringValue ?? "unknown", version: log["creator"]?["version"]?.stringValue ?? "",
                                 comment: log["creator"]?["comment"]?.stringValue)
        var entries: [HAREntry] = []
        for (index, item) in list.enumerated() {
            entries.append(try entry(item, index: index, file: file))
        }
        return HARLog(creator: creator, entries: entries, comment: log["comment"]?.stringValue)
    }

    private static func entry(_ value: JSONValue, index: Int, file: String) throws(HARReadError) -> HAREntry {
        let base = "/log/entries/\(index)"
        let url = value["request"]?["url"]?.stringValue
        func fail(_ pointer: String, _ message: String) -> HARReadError {
            HARReadError(file: file, entry: index, url: url, location: base + pointer, message: message)
        }
        guard let object = value.objectValue else { throw fail("", "expected an entry object, got \(value.typeName)") }
        guard let request = object["request"]?.objectValue else { throw fail("/request", "the entry has no request") }
        guard let method = request["method"]?.stringValue, !method.isEmpty else { throw fail("/request/method", "expected the request method") }
        guard let url, URL(string: url)?.host != nil else { throw fail("/request/url", "expected an absolute URL") }
        guard let response = object["response"]?.objectValue else { throw fail("/response", "the entry has no response") }
        guard let statusValue = response["status"], let status = statusValue.intValue ?? statusValue.stringValue.flatMap({ Int($0) }) else {
            throw fail("/response/status", "expected the response status as a number")
        }
        guard (0...999).contains(status) else {
            throw fail("/response/status", "expected the response status from 0 (no answer) to 999 (found \(statusValue.serialized()))")
        }
        var postData: HARPostData?
        if let post = request["postData"]?.objectValue {
            postData = HARPostData(mimeType: post["mimeType"]?.stringValue ?? "", text: post["text"]?.stringValue,
                                   encoding: post["_encoding"]?.stringValue ?? post["encoding"]?.stringValue,
                                   params: pairs(post["params"]))
            if postData?.encoding == "base64", postData?.bytes == nil { throw fail("/request/postData/text", "marked base64 but is not valid base64") }
        }
        let contentObject = response["content"]?.objectValue ?? JSONObject()
        let content = HARContent(size: try size(contentObject["size"], "/response/content/size", fail),
                                 mimeType: contentObject["mimeType"]?.stringValue ?? "",
                                 text: contentObject["text"]?.stringValue, encoding: contentObject["encoding"]?.stringValue,
                                 comment: contentObject["comment"]?.stringValue)
        if content.encoding == "base64", content.text != nil, content.bytes == nil {
            throw fail("/response/content/text", "marked base64 but is not valid base64")
        }
        let timings = object["timings"]?.objectValue ?? JSONObject()
        let time = try milliseconds(object["time"], "/time", fail) ?? 0
        return HAREntry(
            startedDateTime: object["startedDateTime"]?.stringValue ?? "",
            time: time,
            request: HARRequest(method: method, url: url, httpVersion: request["httpVersion"]?.stringValue ?? "HTTP/1.1",
                                headers: pairs(request["headers"]), queryString: pairs(request["queryString"]), postData: postData,
                                bodySize: try size(request["bodySize"], "/request/bodySize", fail)),
            response: HARResponse(status: status, statusText: response["statusText"]?.stringValue ?? "",
                                  httpVersion: response["httpVersion"]?.stringValue ?? "HTTP/1.1", headers: pairs(response["headers"]),
                                  content: content, bodySize: try size(response["bodySize"], "/response/bodySize", fail),
                                  custom: JSONObject(response.filter { $0.key.hasPrefix("_") }.map { ($0.key, $0.value) })),
            timings: HARTimings(send: try milliseconds(timings["send"], "/timings/send", fail) ?? -1,
                                wait: try milliseconds(timings["wait"], "/timings/wait", fail) ?? -1,
                                receive: try milliseconds(timings["receive"], "/timings/receive", fail) ?? -1),
            serverIPAddress: object["serverIPAddress"]?.stringValue,
            connection: object["connection"]?.stringValue,
            custom: JSONObject(object.filter { $0.key.hasPrefix("_") }.map { ($0.key, $0.value) }))
    }

    /// Pairs from a list of `{name, value}` objects; members without a name are left out, a missing value is "".
    private static func pairs(_ value: JSONValue?) -> [HARPair] {
        (value?.arrayValue ?? []).compactMap { item in
            guard let name = item["name"]?.stringValue else { return nil }
            return HARPair(name: name, value: item["value"]?.stringValue ?? "", fileName: item["fileName"]?.stringValue,
                           contentType: item["contentType"]?.stringValue)
        }
    }

    /// The largest size a HAR may state: 2^53 bytes, the largest whole number a JSON number holds exactly.
    public static let maxSize = 1 << 53
    /// The largest time a HAR may state: 10^12 ms, about 31 years.
    public static let maxMilliseconds = 1e12

    /// Charles writes some numbers as strings; a string that is no number ("NaN" included) is nil.
    private static func number(_ value: JSONValue?) -> Double? {
        value?.numberValue ?? value?.stringValue.flatMap { Double($0) }
    }

    /// A byte count (`content.size`, `bodySize`): -1 (unknown, also when missing) up to `maxSize`, else an error naming
    /// the pointer, so an absurd value never reaches `Int(Double)`.
    private static func size(_ value: JSONValue?, _ pointer: String, _ fail: (String, String) -> HARReadError) throws(HARReadError) -> Int {
        guard let value, value != .null else { return -1 }
        guard let n = number(value), n.isFinite, n == n.rounded(), n >= -1, n <= Double(maxSize) else {
            throw fail(pointer, "expected a whole number of bytes from -1 (unknown) to \(maxSize) (found \(value.serialized()))")
        }
        return Int(n)
    }

    /// A time in milliseconds (`time`, `timings.*`): -1 (unknown) up to `maxMilliseconds`, fractions allowed.
    private static func milliseconds(_ value: JSONValue?, _ pointer: String, _ fail: (String, String) -> HARReadError) throws(HARReadError) -> Double? {
        guard let value, value != .null else { return nil }
        guard let n = number(value), n.isFinite, n >= -1, n <= maxMilliseconds else {
            throw fail(pointer, "expected a number of milliseconds from -1 (unknown) to \(Int(maxMilliseconds)) (found \(value.serialized()))")
        }
        return n + 0
    }

    /// A syntax error, naming the entry the text broke off in (a truncated save usually ends inside one).
    private static func syntaxError(_ data: Data, file: String, _ error: JSONSyntaxError) -> HARReadError {
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let before = lines.prefix(max(0, error.line - 1)).joined(separator: "\n") + "\n" + (lines.dropFirst(error.line - 1).first.map { String($0.prefix(error.column)) } ?? "")
        // Pages carry a startedDateTime too; only what follows "entries" counts. Writers order an entry's members
        // differently (Chrome puts startedDateTime last, Proxyman first), so the entry begun last is the furthest count.
        let inEntries = before.range(of: "\"entries\"").map { String(before[$0.upperBound...]) } ?? ""
        let requests = inEntries.matches(of: /"request"\s*:\s*\{/).count
        let starts = max(requests, inEntries.components(separatedBy: "\"startedDateTime\"").count - 1)
        let truncated = error.reason.contains("end of input") || error.reason.contains("unterminated")
        let what = truncated ? "the file ends early (truncated?)" : "not valid JSON"
        guard starts > 0 else {
            return HARReadError(file: file, location: "line \(error.line), column \(error.column)", message: "\(what): \(error.reason)")
        }
        // The request's URL (not an initiator's), and only when it belongs to the entry the text broke off in.
        let urls = inEntries.matches(of: /"request"\s*:\s*\{[^\[\]{}]*"url"\s*:\s*"([^"]*)"/)
        let url = urls.count == starts ? urls.last.map { String($0.output.1) } : nil
        return HARReadError(file: file, entry: starts - 1, url: url, location: "line \(error.line), column \(error.column)", message: "\(what): \(error.reason)")
    }
}
