/// A data directory that cannot be used or written, naming the path and what to do about it.
public struct StoreDataDirectoryError: Error, Sendable, CustomStringConvertible {
    /// The file or directory concerned.
    public let path: String
    /// What is wrong, for a person.
    public let reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
