import ContractKit
import ContractModel
import Foundation

extension JournalEntry {
    /// The entry with every secret `names` picks out replaced: header values become `<redacted>` (the scheme kept),
    /// query values `<redacted>`, and secret JSON body fields `000000` (six digits, so an example still fits a schema
    /// that wants digits). A body cut at the capture limit cannot be parsed; when it names a secret field it is dropped.
    public func redactingSecrets(_ names: SecretNames) -> JournalEntry {
        var copy = self
        copy.requestHeaders = requestHeaders.map { names.isSecretHeader($0.name) ? HeaderField(name: $0.name, value: ExchangeRecorder.redact($0.value)) : $0 }
        copy.responseHeaders = responseHeaders.map { names.isSecretHeader($0.name) ? HeaderField(name: $0.name, value: ExchangeRecorder.redact($0.value)) : $0 }
        copy.query = query.map { Self.redactingQuery($0, names) }
        copy.requestBody = requestBody.map { Self.redactingFields($0, names) }
        copy.responseBody = responseBody.map { Self.redactingFields($0, names) }
        return copy
    }

    /// The query string with each secret parameter's value replaced, names and order kept.
    public static func redactingQuery(_ query: String, _ names: SecretNames) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[1])) : ""
            guard parts.count > 1, names.isSecretQuery(name: name, value: value) else { return String(pair) }
            return "\(parts[0])=%3Credacted%3E"
        }.joined(separator: "&")
    }

    private static func redactingFields(_ body: CapturedBody, _ names: SecretNames) -> CapturedBody {
        guard !names.bodyFields.isEmpty else { return body }
        guard !body.truncated, let json = try? JSONValue(parsing: body.bytes) else {
            let text = String(decoding: body.bytes, as: UTF8.self)
            return names.bodyFields.contains(where: { text.contains("\"\($0)\"") }) ? CapturedBody(size: 0, bytes: []) : body
        }
        let redacted = names.redactingFields(json, replacement: ExchangeRecorder.redactedPassword)
        guard redacted != json else { return body }
        let bytes = redacted.serializedBytes()
        return CapturedBody(size: bytes.count, bytes: bytes)
    }
}
