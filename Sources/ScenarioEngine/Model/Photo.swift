import ContractKit
import ContractModel
import Foundation

/// Photo bytes and the MIME type the client declares for them.
public struct Photo: Sendable, Equatable {
    /// The raw file bytes.
    public var bytes: Data
    /// The declared type, e.g. `image/jpeg` (the backend ignores it and sniffs the bytes).
    public var mimeType: String

    /// A photo with these bytes and declared type.
    public init(bytes: Data, mimeType: String) {
        self.bytes = bytes
        self.mimeType = mimeType
    }
}
