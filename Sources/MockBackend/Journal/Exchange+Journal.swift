import ContractModel

extension Exchange {
    /// The exchange a journal entry describes (bodies as far as the journal captured them).
    public init(_ entry: JournalEntry) {
        self.init(method: entry.method, path: entry.path, query: entry.query, requestHeaders: entry.requestHeaders,
                  requestBody: entry.requestBody?.bytes ?? [], requestBodySize: entry.requestBody?.size ?? 0,
                  status: entry.status, responseHeaders: entry.responseHeaders,
                  responseBody: entry.responseBody?.bytes ?? [], responseBodySize: entry.responseBody?.size ?? 0,
                  answeredAt: entry.time.addingTimeInterval(Double(entry.durationMs) / 1000))
    }
}
