import ContractKit
import Foundation

/// Writes HAR 1.2 archives as JSON, whole or piece by piece (so a long export or recording never holds every entry as text).
///
/// A document is `opening` + the entries joined by `separator` + `closing(comment:)`.
public enum HARWriter {
    /// Everything before the first entry.
    public static func opening(_ creator: HARCreator = .spotCheck) -> String {
        var head: JSONObject = ["name": .string(creator.name), "version": .string(creator.version)]
        if let comment = creator.comment { head["comment"] = .string(comment) }
        return #"{"log":{"version":"1.2","creator":"# + JSONValue.object(head).serialized() + #","entries":["# + "\n"
    }

    /// Between two entries.
    public static let separator = ",\n"

    /// Everything after the last entry; `comment` becomes `log.comment`.
    public static func closing(comment: String? = nil) -> String {
        "\n]" + (comment.map { #","comment":"# + JSONValue.string($0).serialized() } ?? "") + "}}\n"
    }

    /// The whole archive as text.
    public static func document(_ log: HARLog) -> String {
        opening(log.creator) + log.entries.map(text).joined(separator: separator) + closing(comment: log.comment)
    }

    /// One entry as compact JSON.
    public static func text(_ entry: HAREntry) -> String {
        json(entry).serialized()
    }

    /// One entry as JSON, with every member HAR 1.2 requires.
    public static func json(_ entry: HAREntry) -> JSONValue {
        var o: JSONObject = [
            "startedDateTime": .string(entry.startedDateTime),
            "time": .number(entry.time),
            "request": json(entry.request),
            "response": json(entry.response),
            "cache": .object([:]),
            "timings": .object(["blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": .number(entry.timings.send),
                                "wait": .number(entry.timings.wait), "receive": .number(entry.timings.receive)]),
        ]
        if let ip = entry.serverIPAddress { o["serverIPAddress"] = .string(ip) }
        if let connection = entry.connection { o["connection"] = .string(connection) }
        for member in entry.custom { o[member.key] = member.value }
        return .object(o)
    }

    private static func json(_ request: HARRequest) -> JSONValue {
        var o: JSONObject = [
            "method": .string(request.method), "url": .string(request.url), "httpVersion": .string(request.httpVersion),
            "cookies": .array([]), "headers": pairs(request.headers), "queryString": pairs(request.queryString),
        ]
        if let post = request.postData {
            var p: JSONObject = ["mimeType": .string(post.mimeType)]
            if let text = post.text { p["text"] = .string(text) }
            if let encoding = post.encoding { p["_encoding"] = .string(encoding) }
            if !post.params.isEmpty { p["params"] = pairs(post.params) }
            o["postData"] = .object(p)
        }
        o["headersSize"] = -1
        o["bodySize"] = .number(Double(request.bodySize))
        return .object(o)
    }

    private static func json(_ response: HARResponse) -> JSONValue {
        var content: JSONObject = ["size": .number(Double(response.content.size)), "mimeType": .string(response.content.mimeType)]
        if let text = response.content.text { content["text"] = .string(text) }
        if let encoding = response.content.encoding { content["encoding"] = .string(encoding) }
        if let comment = response.content.comment { content["comment"] = .string(comment) }
        var o: JSONObject = [
            "status": .number(Double(response.status)), "statusText": .string(response.statusText),
            "httpVersion": .string(response.httpVersion), "cookies": .array([]), "headers": pairs(response.headers),
            "content": .object(content), "redirectURL": .string(response.header("location") ?? ""), "headersSize": -1,
            "bodySize": .number(Double(response.bodySize)),
        ]
        for member in response.custom { o[member.key] = member.value }
        return .object(o)
    }

    private static func pairs(_ list: [HARPair]) -> JSONValue {
        .array(list.map { pair in
            var object: JSONObject = ["name": .string(pair.name), "value": .string(pair.value)]
            if let fileName = pair.fileName { object["fileName"] = .string(fileName) }
            if let contentType = pair.contentType { object["contentType"] = .string(contentType) }
            return .object(object)
        })
    }
}
