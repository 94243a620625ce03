import ContractModel
import Foundation

/// One request as the server saw it: what was asked, which contract and rule matched, and what was sent back.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// 1-based position in the journal; keeps counting after the ring drops old entries.
    public var sequence: Int
    /// When the request head arrived.
    public var time: Date
    /// The request method, e.g. `POST`.
    public var method: String
    /// The request path without the query string.
    public var path: String
    /// The matched contract id, if any.
    public var contract: String?
    /// The status sent, or nil when no response was sent (stall, drop, reset, refuse).
    public var status: Int?
    /// The user name from a Basic `Authorization` header, if one could be decoded.
    public var authUser: String?
    /// The name of the fault rule that matched, if any.
    public var rule: String?
    /// The kind of fault applied (`status`, `stall`, ...), if any.
    public var fault: String?
    /// Milliseconds from the request head to the moment the outcome was decided.
    public var durationMs: Int
    /// The query string after `?`, if the request had one.
    public var query: String?
    /// The request headers, in the order sent.
    public var requestHeaders: [HeaderField]
    /// The first bytes of the request body (see `CapturedBody`), nil when there was none.
    public var requestBody: CapturedBody?
    /// The headers of the answer as the responder produced it (before a fault garbled or cut it), empty when none was sent.
    public var responseHeaders: [HeaderField]
    /// The first bytes of the answer's body, nil when there was none.
    public var responseBody: CapturedBody?
    /// The `code` of the answer's error envelope, if it had one.
    public var errorCode: String?
    /// The `field` of the answer's error envelope, if it had one.
    public var errorField: String?
    /// Ways this exchange left its contract (and listed known server defects it showed), filled by exchange validation.
    public var violations: [ExchangeViolation]

    /// Creates an entry; the journal assigns `sequence` when it records it.
    public init(sequence: Int = 0, time: Date, method: String, path: String, contract: String?, status: Int?,
                authUser: String?, rule: String?, fault: String?, durationMs: Int, query: String? = nil,
                requestHeaders: [HeaderField] = [], requestBody: CapturedBody? = nil,
                responseHeaders: [HeaderField] = [], responseBody: CapturedBody? = nil,
                errorCode: String? = nil, errorField: String? = nil, violations: [ExchangeViolation] = []) {
        self.sequence = sequence
        self.time = JournalEntry.millisecondPrecision(time)
        self.method = method
        self.path = path
        self.contract = contract
        self.status = status
        self.authUser = authUser
        self.rule = rule
        self.fault = fault
        self.durationMs = durationMs
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.errorCode = errorCode
        self.errorField = errorField
        self.violations = violations
    }

    /// The path with its query string, as the request named it.
    public var target: String {
        query.map { "\(path)?\($0)" } ?? path
    }

    private enum CodingKeys: String, CodingKey {
        case sequence, time, method, path, contract, status, authUser, rule, fault, durationMs
        case query, requestHeaders, requestBody, responseHeaders, responseBody, errorCode, errorField, violations
    }

    /// Decodes an entry whose `time` is an ISO 8601 string with milliseconds.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try c.decode(Int.self, forKey: .sequence)
        let text = try c.decode(String.self, forKey: .time)
        guard let date = JournalEntry.parseTime(text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "'\(text)' is not an ISO 8601 time")
        }
        time = date
        method = try c.decode(String.self, forKey: .method)
        path = try c.decode(String.self, forKey: .path)
        contract = try c.decodeIfPresent(String.self, forKey: .contract)
        status = try c.decodeIfPresent(Int.self, forKey: .status)
        authUser = try c.decodeIfPresent(String.self, forKey: .authUser)
        rule = try c.decodeIfPresent(String.self, forKey: .rule)
        fault = try c.decodeIfPresent(String.self, forKey: .fault)
        durationMs = try c.decode(Int.self, forKey: .durationMs)
        // The capture keys arrived later; journals written before them still decode.
        query = try c.decodeIfPresent(String.self, forKey: .query)
        requestHeaders = try c.decodeIfPresent([HeaderField].self, forKey: .requestHeaders) ?? []
        requestBody = try c.decodeIfPresent(CapturedBody.self, forKey: .requestBody)
        responseHeaders = try c.decodeIfPresent([HeaderField].self, forKey: .responseHeaders) ?? []
        responseBody = try c.decodeIfPresent(CapturedBody.self, forKey: .responseBody)
        errorCode = try c.decodeIfPresent(String.self, forKey: .errorCode)
        errorField = try c.decodeIfPresent(String.self, forKey: .errorField)
        violations = try c.decodeIfPresent([ExchangeViolation].self, forKey: .violations) ?? []
    }

    /// Encodes every key, with `null` for absent values, so readers see a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(JournalEntry.formatTime(time), forKey: .time)
        try c.encode(method, forKey: .method)
        try c.encode(path, forKey: .path)
        try c.encode(contract, forKey: .contract)
        try c.encode(status, forKey: .status)
        try c.encode(authUser, forKey: .authUser)
        try c.encode(rule, forKey: .rule)
        try c.encode(fault, forKey: .fault)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(query, forKey: .query)
        try c.encode(requestHeaders, forKey: .requestHeaders)
        try c.encode(requestBody, forKey: .requestBody)
        try c.encode(responseHeaders, forKey: .responseHeaders)
        try c.encode(responseBody, forKey: .responseBody)
        try c.encode(errorCode, forKey: .errorCode)
        try c.encode(errorField, forKey: .errorField)
        try c.encode(violations, forKey: .violations)
    }

    /// Rounds to whole milliseconds, the precision of the JSON form, so entries survive a round trip unchanged.
    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// `2025-11-19T10:00:00.000Z`.
    static func formatTime(_ date: Date) -> String {
        let totalMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = Int64((Double(totalMs) / 1000).rounded(.down))
        let ms = totalMs - seconds * 1000
        let base = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
        let fraction = String(ms + 1000).dropFirst()
        return "\(base.dropLast()).\(fraction)Z"
    }

    static func parseTime(_ text: String) -> Date? {
        guard text.hasSuffix("Z") else { return nil }
        var whole = String(text.dropLast())
        var ms = 0.0
        if let dot = whole.lastIndex(of: ".") {
            let digits = whole[whole.index(after: dot)...]
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let value = Double("0." + digits) else { return nil }
            ms = (value * 1000).rounded()
            whole = String(whole[..<dot])
        }
        guard let base = try? Date(whole + "Z", strategy: .iso8601) else { return nil }
        return Date(timeIntervalSince1970: (base.timeIntervalSince1970 * 1000 + ms) / 1000)
    }
}
