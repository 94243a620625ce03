import ContractModel

extension RecordStore {
    /// One page of `collection` as `GET /__spotcheck/state` asks for it (see `page(limit:maxBytes:cursor:collection:)`).
    public func page(_ request: StatePageRequest, collection: String? = nil) -> (count: Int, newest: [StoredRecord], next: Int?) {
        page(limit: request.limit, maxBytes: request.maxBytes, cursor: request.cursor, collection: collection)
    }
}
