import ContractKit
import ContractModel
import Foundation
import HTTPArchive
import NIOHTTP1

/// Converts journal entries to HAR entries and back: the journal holds exactly what a HAR holds.
///
/// What HAR has no member for (the contract, fault rule, fault kind, violations, cut bodies) goes into `_spotcheck`,
/// so a HAR exported by SpotCheck comes back as the same journal entry.
public enum JournalHAR {
    /// The custom member every SpotCheck entry carries.
    public static let customKey = "_spotcheck"

    /// The HAR entry for `entry`; `origin` is the scheme, host and port the client addressed, e.g. `http://127.0.0.1:3000`.
    public static func entry(_ entry: JournalEntry, origin: String, serverIPAddress: String? = nil) -> HAREntry {
        var request = HARRequest(method: entry.method, url: origin + entry.target, headers: pairs(entry.requestHeaders),
                                 queryString: queryPairs(entry.query), bodySize: entry.requestBody?.size ?? 0)
        if let body = entry.requestBody {
            let mime = header("content-type", in: entry.requestHeaders) ?? "application/octet-stream"
            request.postData = body.text.map { HARPostData(mimeType: mime, text: $0) }
                ?? HARPostData(mimeType: mime, text: Data(body.bytes).base64EncodedString(), encoding: "base64")
        }
        var content = HARContent(size: entry.responseBody?.size ?? 0, mimeType: header("content-type", in: entry.responseHeaders) ?? "x-unknown")
        if let body = entry.responseBody {
            if let text = body.text { content.text = text } else {
                content.text = Data(body.bytes).base64EncodedString()
                content.encoding = "base64"
            }
            if body.truncated { content.comment = "only the first \(body.bytes.count) of \(body.size) bytes were kept (the journal's capture limit)" }
        }
        let status = entry.status ?? 0
        let response = HARResponse(status: status, statusText: status == 0 ? "" : HTTPResponseStatus(statusCode: status).reasonPhrase,
                                   headers: pairs(entry.responseHeaders), content: content,
                                   bodySize: entry.status == nil ? -1 : entry.responseBody?.size ?? 0)
        var custom = JSONObject()
        if entry.status == nil {
            custom["_error"] = .string("no answer: the fault \(entry.fault ?? "unknown") was applied (\(entry.rule ?? "no rule name"))")
        }
        custom[customKey] = .object(spotcheck(entry))
        return HAREntry(startedDateTime: JournalEntry.formatTime(entry.time), time: Double(entry.durationMs), request: request, response: response,
                        timings: HARTimings(send: 0, wait: Double(entry.durationMs), receive: 0), serverIPAddress: serverIPAddress,
                        custom: custom)
    }

    private static func spotcheck(_ entry: JournalEntry) -> JSONObject {
        var o: JSONObject = ["sequence": .number(Double(entry.sequence))]
        o["contract"] = entry.contract.map(JSONValue.string) ?? .null
        o["fault"] = entry.fault.map(JSONValue.string) ?? .null
        o["rule"] = entry.rule.map(JSONValue.string) ?? .null
        if let code = entry.errorCode { o["errorCode"] = .string(code) }
        if let field = entry.errorField { o["errorField"] = .string(field) }
        if let body = entry.requestBody, body.truncated { o["requestBodyTruncated"] = .bool(true) }
        if let body = entry.responseBody, body.truncated { o["responseBodyTruncated"] = .bool(true) }
        if !entry.violations.isEmpty,
           let data = try? JSONEncoder().encode(entry.violations), let list = try? JSONValue(parsing: data) {
            o["violations"] = list
        }
        return o
    }

    /// The journal entry a HAR entry describes: path and query from the URL, bodies cut to `captureLimit`, the contract
    /// matched by `contracts`, the fault from `_spotcheck` when SpotCheck wrote it. Nil `status` when no answer came.
    public static func journalEntry(_ har: HAREntry, contracts: ContractSet?, captureLimit: Int = CapturedBody.defaultLimit) -> JournalEntry {
        let components = URLComponents(string: har.request.url)
        let path = components?.percentEncodedPath.isEmpty == false ? components!.percentEncodedPath : "/"
        let marks = har.custom[customKey]?.objectValue
        let status = har.response.status > 0 ? har.response.status : nil
        let requestHeaders = har.request.headers.filter { !$0.name.hasPrefix(":") }.map { HeaderField(name: $0.name, value: $0.value) }
        let responseHeaders = har.response.headers.filter { !$0.name.hasPrefix(":") }.map { HeaderField(name: $0.name, value: $0.value) }
        let requestBody = har.request.postData?.bytes.flatMap { bytes in
            bytes.isEmpty ? nil : CapturedBody(size: max(bytes.count, har.request.bodySize), bytes: Array(bytes.prefix(captureLimit)))
        }
        let responseBytes = har.response.content.bytes ?? []
        let responseBody = responseBytes.isEmpty ? nil
            : CapturedBody(size: max(responseBytes.count, har.response.content.size), bytes: Array(responseBytes.prefix(captureLimit)))
        let envelope = ErrorEnvelopeSummary(body: responseBytes)
        var violations: [ExchangeViolation] = []
        if let list = marks?["violations"], let decoded = try? JSONDecoder().decode([ExchangeViolation].self, from: list.data()) {
            violations = decoded
        }
        return JournalEntry(
            sequence: marks?["sequence"]?.intValue ?? 0, time: time(har.startedDateTime), method: har.request.method.uppercased(), path: path,
            contract: marks?["contract"]?.stringValue ?? contracts?.match(method: har.request.method.uppercased(), path: path)?.contract.id,
            status: status, authUser: basicAuthUser(requestHeaders.first { $0.hasName("authorization") }?.value),
            rule: marks?["rule"]?.stringValue, fault: marks?["fault"]?.stringValue, durationMs: Int(max(0, har.time).rounded()),
            query: components?.percentEncodedQuery, requestHeaders: requestHeaders, requestBody: requestBody,
            responseHeaders: responseHeaders, responseBody: responseBody, errorCode: envelope?.code, errorField: envelope?.field,
            violations: violations)
    }

    /// ISO 8601 with or without fractions and with any offset (Firefox writes `+01:00`); the epoch when unreadable.
    static func time(_ text: String) -> Date {
        if let date = JournalEntry.parseTime(text) { return date }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    private static func pairs(_ headers: [HeaderField]) -> [HARPair] {
        headers.map { HARPair(name: $0.name, value: $0.value) }
    }

    private static func header(_ name: String, in headers: [HeaderField]) -> String? {
        headers.first { $0.hasName(name) }?.value
    }

    private static func queryPairs(_ query: String?) -> [HARPair] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s) }
            return HARPair(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
