import ContractKit
import Foundation

/// A HAR 1.2 archive (http://www.softwareishard.com/blog/har-12-spec/): what crossed the wire, entry by entry.
///
/// Only what SpotCheck reads or writes is modelled; `_`-prefixed custom fields of each entry are kept as they are.
public struct HARLog: Sendable, Equatable {
    /// The tool that wrote the archive (`log.creator`).
    public var creator: HARCreator
    /// The exchanges, in the order they started.
    public var entries: [HAREntry]
    /// `log.comment`, e.g. why entries were left out.
    public var comment: String?

    /// An archive with these entries.
    public init(creator: HARCreator, entries: [HAREntry], comment: String? = nil) {
        self.creator = creator
        self.entries = entries
        self.comment = comment
    }
}

/// `log.creator`: name and version of the writing tool.
public struct HARCreator: Sendable, Equatable {
    /// e.g. `SpotCheck`, `WebInspector`, `Proxyman`.
    public var name: String
    /// The tool's version.
    public var version: String
    /// `creator.comment`: SpotCheck says there whether secrets were redacted.
    public var comment: String?

    /// A creator.
    public init(name: String, version: String, comment: String? = nil) {
        self.name = name
        self.version = version
        self.comment = comment
    }

    /// SpotCheck as a HAR writer, its comment saying that secrets are redacted.
    public static let spotCheck = HARCreator.spotCheck(keptSecrets: false)

    /// The comment of a HAR SpotCheck writes with secrets redacted.
    public static let redactedComment = "secrets redacted: credential headers, secret query values and the secret fields the contracts declare (--keep-secrets keeps them)"
    /// The comment of a HAR SpotCheck writes with `--keep-secrets`.
    public static let keptComment = "secrets KEPT (--keep-secrets): this file holds credentials, tokens and passwords; do not share it"

    /// SpotCheck as a HAR writer, saying whether the file keeps its secrets.
    public static func spotCheck(keptSecrets: Bool) -> HARCreator {
        HARCreator(name: "SpotCheck", version: "1", comment: keptSecrets ? keptComment : redactedComment)
    }
}

/// A name and value pair: a header, a query parameter or a form parameter.
public struct HARPair: Sendable, Equatable {
    /// The name as sent.
    public var name: String
    /// The value as sent.
    public var value: String
    /// A posted file's name (`postData.params` only), which makes the pair a file part of a multipart body.
    public var fileName: String?
    /// A posted file's media type (`postData.params` only).
    public var contentType: String?

    /// A pair.
    public init(name: String, value: String, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
    }
}

/// One exchange of a HAR archive.
public struct HAREntry: Sendable, Equatable {
    /// When the request started, ISO 8601.
    public var startedDateTime: String
    /// Milliseconds the exchange took (the sum of the timings).
    public var time: Double
    /// What the client sent.
    public var request: HARRequest
    /// What came back; status 0 when nothing did.
    public var response: HARResponse
    /// `timings.send`, `wait`, `receive` in milliseconds; -1 means not known.
    public var timings: HARTimings
    /// `serverIPAddress`, when the writer knew it.
    public var serverIPAddress: String?
    /// `connection`, the writer's connection id, when given.
    public var connection: String?
    /// Every `_`-prefixed member of the entry (`_error`, `_spotcheck`, Chrome's `_initiator`, ...), in order.
    public var custom: JSONObject

    /// An entry.
    public init(startedDateTime: String, time: Double, request: HARRequest, response: HARResponse, timings: HARTimings,
                serverIPAddress: String? = nil, connection: String? = nil, custom: JSONObject = JSONObject()) {
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.custom = custom
    }

    /// The failure text some writers give when no answer came (`_error` of Chrome and Proxyman, `response._error` of Firefox).
    public var errorText: String? {
        custom["_error"]?.stringValue ?? response.custom["_error"]?.stringValue
    }
}

/// `request` of an entry.
public struct HARRequest: Sendable, Equatable {
    /// The method, e.g. `POST`.
    public var method: String
    /// The absolute URL with its query string.
    public var url: String
    /// e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// The headers in order.
    public var headers: [HARPair]
    /// The query parameters, decoded.
    public var queryString: [HARPair]
    /// The body, when there was one.
    public var postData: HARPostData?
    /// The body's size in bytes, -1 when not known.
    public var bodySize: Int

    /// A request.
    public init(method: String, url: String, httpVersion: String = "HTTP/1.1", headers: [HARPair] = [], queryString: [HARPair] = [],
                postData: HARPostData? = nil, bodySize: Int = -1) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.headers = headers
        self.queryString = queryString
        self.postData = postData
        self.bodySize = bodySize
    }

    /// The first header with this name (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// `request.postData`: the body as text, or as form parameters when the writer only kept those.
public struct HARPostData: Sendable, Equatable {
    /// The body's media type.
    public var mimeType: String
    /// The body as text; SpotCheck writes binary bodies base64-encoded with `_encoding: "base64"`.
    public var text: String?
    /// `_encoding` (or `encoding`): `base64` when `text` holds base64.
    public var encoding: String?
    /// Form parameters, when the writer gave those instead of (or beside) `text`.
    public var params: [HARPair]

    /// A body.
    public init(mimeType: String, text: String?, encoding: String? = nil, params: [HARPair] = []) {
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.params = params
    }

    /// The body's bytes: `text` decoded (base64 when so marked), else the parameters form-encoded; nil when neither is given.
    public var bytes: [UInt8]? {
        if let text {
            if encoding == "base64" { return Data(base64Encoded: text).map(Array.init) }
            return Array(text.utf8)
        }
        guard !params.isEmpty else { return nil }
        if let boundary = multipartBoundary { return multipartBytes(boundary: boundary) }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encode = { (s: String) in s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
        return Array(params.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&").utf8)
    }

    /// The boundary of a `multipart/form-data` media type, nil for any other.
    var multipartBoundary: String? {
        let parts = mimeType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parameters as the multipart body they were sent in (Proxyman and Charles keep only these for an upload):
    /// each a part with its name, a file's name and type, and the value the tool kept (a file's bytes usually are not).
    private func multipartBytes(boundary: String) -> [UInt8] {
        var text = ""
        for param in params {
            let name = param.name.replacingOccurrences(of: "\"", with: "%22")
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            if let fileName = param.fileName { text += "; filename=\"\(fileName.replacingOccurrences(of: "\"", with: "%22"))\"" }
            text += "\r\n"
            if let type = param.contentType { text += "Content-Type: \(type)\r\n" }
            text += "\r\n\(param.value)\r\n"
        }
        text += "--\(boundary)--\r\n"
        return Array(text.utf8)
    }
}

/// `response` of an entry.
public struct HARResponse: Sendable, Equatable {
    /// The status, 0 when no answer came.
    public var status: Int
    /// The reason phrase.
    public var statusText: String
    /// e.g. `HTTP/1.1`.
    public var httpVersion: String
    /// The headers in order.
    public var headers: [HARPair]
    /// The body.
    public var content: HARContent
    /// The body's size in bytes as sent, -1 when not known.
    public var bodySize: Int
    /// Every `_`-prefixed member of the response (Firefox puts `_error` here).
    public var custom: JSONObject

    /// A response.
    public init(status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1", headers: [HARPair] = [], content: HARContent,
                bodySize: Int = -1, custom: JSONObject = JSONObject()) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.headers = headers
        self.content = content
        self.bodySize = bodySize
        self.custom = custom
    }

    /// The first header with this name (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// `response.content`: the answer's body.
public struct HARContent: Sendable, Equatable {
    /// The body's full size in bytes (more than `text` holds when it was cut).
    public var size: Int
    /// The media type.
    public var mimeType: String
    /// The body as text, or base64 when `encoding` says so; nil when not kept.
    public var text: String?
    /// `base64` when `text` is base64.
    public var encoding: String?
    /// `comment`, e.g. that the body was cut at the capture limit.
    public var comment: String?

    /// A body.
    public init(size: Int, mimeType: String, text: String? = nil, encoding: String? = nil, comment: String? = nil) {
        self.size = size
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.comment = comment
    }

    /// The kept bytes, decoded; nil when no text was kept or its base64 is broken.
    public var bytes: [UInt8]? {
        guard let text else { return nil }
        if encoding == "base64" { return Data(base64Encoded: text).map(Array.init) }
        return Array(text.utf8)
    }
}

/// `timings` of an entry, in milliseconds; -1 where a phase does not apply or is not known.
public struct HARTimings: Sendable, Equatable {
    /// Sending the request.
    public var send: Double
    /// Waiting for the first byte of the answer.
    public var wait: Double
    /// Reading the answer.
    public var receive: Double

    /// Timings.
    public init(send: Double, wait: Double, receive: Double) {
        self.send = send
        self.wait = wait
        self.receive = receive
    }
}
