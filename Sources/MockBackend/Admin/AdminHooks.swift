import ContractKit
import ContractModel

/// What the admin API asks of the backend behind the server.
public protocol AdminHooks: Sendable {
    /// Empties the backend's store (`POST /__spotcheck/reset`).
    func reset() async

    /// One page of the stored records of `collection` (nil: the primary one), newest first, the total, and every
    /// collection with its count, for `GET /__spotcheck/state`; nil when the backend keeps no state (the proxy).
    func state(_ page: StatePageRequest, collection: String?) async -> JSONValue?

    /// Deletes one stored record (`DELETE /__spotcheck/state/records/{collection}/{id}`; nil collection: the primary
    /// one); false when there is none.
    func deleteRecord(collection: String?, id: String) async throws(AdminHookError) -> Bool

    /// The stored file of a record: its bytes and content type.
    func photo(collection: String?, id: String) async -> (bytes: [UInt8], contentType: String)?

    /// Adds the records of a fixtures document (`POST /__spotcheck/state/fixtures`); answers how many were loaded.
    func loadFixtures(_ document: JSONValue) async throws(AdminHookError) -> Int

    /// The collections the contracts declare, in order: what `state/<collection>/...` may name.
    var collectionNames: [String] { get }
}

/// Why a state change asked through the admin API was not made, in words for a person.
public struct AdminHookError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Whether the request was at fault (400) rather than the server (500).
    public let badRequest: Bool

    /// An error with this message.
    public init(_ message: String, badRequest: Bool) {
        self.message = message
        self.badRequest = badRequest
    }

    public var description: String { message }
}

extension AdminHooks {
    /// No collections.
    public var collectionNames: [String] { [] }

    /// No state to show.
    public func state(_ page: StatePageRequest, collection: String?) async -> JSONValue? { nil }

    /// Nothing to delete.
    public func deleteRecord(collection: String?, id: String) async throws(AdminHookError) -> Bool { false }

    /// No photos.
    public func photo(collection: String?, id: String) async -> (bytes: [UInt8], contentType: String)? { nil }

    /// Fixtures need a stateful backend.
    public func loadFixtures(_ document: JSONValue) async throws(AdminHookError) -> Int {
        throw AdminHookError("This server keeps no state to load fixtures into.", badRequest: true)
    }
}
