import Foundation

/// Why a HAR file could not be read, naming the entry (index and URL) where it went wrong, when there is one.
public struct HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as given by the user.
    public var file: String
    /// The 0-based index of the entry at fault, nil when the problem is outside the entries.
    public var entry: Int?
    /// The entry's `request.url`, when it could be read.
    public var url: String?
    /// JSON pointer to the offending value, or a line and column for a syntax error.
    public var location: String
    /// What is wrong and what was expected.
    public var message: String

    /// An error.
    public init(file: String, entry: Int? = nil, url: String? = nil, location: String, message: String) {
        self.file = file
        self.entry = entry
        self.url = url
        self.location = location
        self.message = message
    }

    /// `file: entry 3 (POST https://…): /log/entries/3/response/status: message`.
    public var description: String {
        var text = file + ": "
        if let entry { text += "entry \(entry)" + (url.map { " (\($0))" } ?? "") + ": " }
        return text + (location.isEmpty ? "" : location + ": ") + message
    }
}
