import ContractKit
import Foundation

/// One request and its answer as the exchange validator sees them: what crossed the wire, bodies cut to what validation reads.
public struct Exchange: Sendable {
    /// JSON bodies are validated whole up to this many bytes; a longer JSON body is reported as not validated.
    public static let jsonValidationLimit = 1024 * 1024
    /// Of any other body (multipart, images, text) validation reads only the first 64 KiB: the N of docs/proxy.md.
    public static let nonJSONValidationLimit = 64 * 1024

    /// The request method, e.g. `POST`.
    public var method: String
    /// The path without the query string.
    public var path: String
    /// The query string after `?`, if any.
    public var query: String?
    /// The request headers, in order.
    public var requestHeaders: [HeaderField]
    /// The first bytes of the request body (see the limits above).
    public var requestBody: [UInt8]
    /// The request body's full size.
    public var requestBodySize: Int
    /// The whole request body as JSON, when the server already parsed exactly these bytes; the check then skips its parse.
    package var parsedRequestBody: JSONValue?
    /// The status sent, nil when no answer was sent (stall, drop, reset).
    public var status: Int?
    /// The answer's headers, in order.
    public var responseHeaders: [HeaderField]
    /// The first bytes of the answer's body.
    public var responseBody: [UInt8]
    /// The answer body's full size.
    public var responseBodySize: Int
    /// When the answer was decided or arrived, on the clock of whoever saw it; nil when unknown. A value the server made
    /// from its clock (`now-iso-ms`) must be close to the answer's `Date` header, else to this.
    public var answeredAt: Date?
    /// The contract the server routed the request to, when it did (`serve`, the proxy): the validator tries it first.
    public var routedContractID: String?

    /// An exchange from its parts.
    public init(method: String, path: String, query: String? = nil, requestHeaders: [HeaderField] = [], requestBody: [UInt8] = [],
                requestBodySize: Int? = nil, status: Int?, responseHeaders: [HeaderField] = [], responseBody: [UInt8] = [],
                responseBodySize: Int? = nil, answeredAt: Date? = nil) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestBodySize = requestBodySize ?? requestBody.count
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseBodySize = responseBodySize ?? responseBody.count
        self.answeredAt = answeredAt
    }

    /// The first request header with this name (case-insensitive).
    public func requestHeader(_ name: String) -> String? {
        requestHeaders.first { $0.hasName(name) }?.value
    }

    /// The first response header with this name (case-insensitive).
    public func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.hasName(name) }?.value
    }

    /// How many bytes of a body validation keeps, by its content type.
    package static func validationLimit(contentType: String?) -> Int {
        isJSON(contentType) ? jsonValidationLimit : nonJSONValidationLimit
    }

    /// Whether a Content-Type names JSON (`application/json` or `…+json`).
    package static func isJSON(_ contentType: String?) -> Bool {
        guard let media = contentType.map(mediaType) else { return false }
        return media == "application/json" || media.hasSuffix("+json")
    }

    /// The media type of a Content-Type, lower-cased, parameters dropped.
    static func mediaType(_ contentType: String) -> String {
        // Checked several times per exchange. Most Content-Types are already a bare lower-case media type: returned as
        // they are. Other ASCII ones (every real Content-Type) are cut, trimmed and lower-cased without Foundation.
        if !contentType.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")
                                               || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return contentType
        }
        if !contentType.utf8.contains(where: { $0 >= 0x80 }) {
            guard let type = contentType.utf8.split(separator: UInt8(ascii: ";")).first else { return "" }
            let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard let start = type.firstIndex(where: { !blank($0) }), let end = type.lastIndex(where: { !blank($0) }) else { return "" }
            return String(decoding: type[start...end].map(ASCIICase.lower), as: UTF8.self)
        }
        return contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The query string's name/value pairs, percent-decoded (`+` as a space).
    package var queryItems: [(name: String, value: String)] { Self.queryItems(query) }

    /// A query string's name/value pairs in order, percent-decoded (`+` as a space).
    package static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
