import Foundation

extension AnnouncementAPI {
    /// Timeouts for every request the API makes.
    public struct Configuration: Sendable, Equatable {
        /// How long a request may wait for data before it fails with `URLError.timedOut`.
        public var requestTimeout: TimeInterval
        /// How long a whole transfer (including a slow body) may take.
        public var resourceTimeout: TimeInterval

        /// Creates a configuration; the resource timeout defaults to at least the request timeout.
        public init(requestTimeout: TimeInterval = 30, resourceTimeout: TimeInterval? = nil) {
            self.requestTimeout = requestTimeout
            self.resourceTimeout = max(resourceTimeout ?? 60, requestTimeout)
        }
    }
}
