import ContractModel
import Foundation
import NIOCore

extension MockServer {
    /// Journals one exchange, has the exchange observer check it and logs it; returns the violations the observer found,
    /// which go out as headers with the answer. `response` is the answer as produced (nil when none was sent), `status`
    /// what the client got.
    func recordExchange(_ request: MockRequest, contract: String?, started: ContinuousClock.Instant, status: Int?,
                        response: MockResponse?, decision: FaultDecision?) -> [ExchangeViolation] {
        let elapsed = ContinuousClock.now - started
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let limit = configuration.journalBodyLimit
        let responseBody = response.flatMap { CapturedBody($0.body, limit: limit) }
        // Only error answers are parsed, so a successful exchange pays nothing for the summary.
        let summary = (status ?? 0) >= 400 ? responseBody.flatMap { ErrorEnvelopeSummary(body: $0.bytes) } : nil
        var entry = JournalEntry(
            time: Date() - Double(ms) / 1000, method: request.method.rawValue, path: request.path, contract: contract,
            status: status, authUser: basicAuthUser(request.headers.first(name: "authorization")),
            rule: decision?.rule, fault: decision?.fault.kind, durationMs: ms, query: request.query,
            requestHeaders: HeaderField.list(request.headers), requestBody: CapturedBody(request.body, limit: limit),
            responseHeaders: response.map { HeaderField.list($0.headers) } ?? [], responseBody: responseBody,
            errorCode: summary?.code, errorField: summary?.field)
        var violations: [ExchangeViolation] = []
        if let observer = exchangeObserver {
            entry.violations = observer.inspect(entry, requestBody: request.body, parsedRequestBody: response?.parsedRequestBody,
                                                responseBody: response?.body)
            violations = entry.violations
        }
        entry = journal.record(entry)
        exchangeObserver?.recorded(entry)
        logRequest(entry, uri: request.uri)
        return violations
    }
}
