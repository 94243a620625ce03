import ContractKit
import Foundation

extension JournalEntry {
    /// The entry with credentials taken out, as recordings keep them: Authorization, cookie and admin-token header values
    /// become `<redacted>` (the scheme kept), and every `managementPassword` or `password` in a JSON body becomes `000000`.
    /// `authUser` stays: in PetSpot it is the announcement id, not a secret.
    public func redactingSecrets() -> JournalEntry {
        var copy = self
        let secret = { (name: String) in ExchangeRecorder.isSecretHeader(name) || ["set-cookie", "x-admin-token"].contains(name.lowercased()) }
        copy.requestHeaders = requestHeaders.map { secret($0.name) ? HeaderField(name: $0.name, value: ExchangeRecorder.redact($0.value)) : $0 }
        copy.responseHeaders = responseHeaders.map { secret($0.name) ? HeaderField(name: $0.name, value: ExchangeRecorder.redact($0.value)) : $0 }
        copy.requestBody = requestBody.map(Self.redactingPasswords)
        copy.responseBody = responseBody.map(Self.redactingPasswords)
        return copy
    }

    private static func redactingPasswords(_ body: CapturedBody) -> CapturedBody {
        guard !body.truncated, let json = try? JSONValue(parsing: body.bytes) else { return body }
        let redacted = ExchangeRecorder.redactPasswords(json)
        guard redacted != json else { return body }
        let bytes = redacted.serializedBytes()
        return CapturedBody(size: bytes.count, bytes: bytes)
    }
}
