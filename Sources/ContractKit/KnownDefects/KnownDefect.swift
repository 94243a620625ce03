import Foundation

/// A documented answer the real server is known to get wrong, with what it answers instead and why that is tolerated.
public struct KnownDefect: Sendable, Equatable {
    /// The requests that set off a defect, named so the mock backend can reproduce it on demand.
    public enum Trigger: String, Sendable, CaseIterable {
        /// A create body with the JSON content type that is not valid JSON.
        case malformedJSON
        /// A create body whose JSON root is a string, number, boolean or null (not `{` or `[`).
        case jsonRootNotContainer
        /// A create body with the JSON content type and a charset other than `utf-*`.
        case unsupportedCharset
        /// An upload whose file part has another name than the contract's file part.
        case multipartOtherFilePart
        /// An upload whose multipart body is malformed (no boundary, cut short, a second file, a huge text field).
        case multipartMalformed
    }

    /// What the real server answers instead of the documented answer.
    public struct Answer: Sendable, Equatable {
        /// The HTTP status.
        public let status: Int
        /// The envelope's `error.code`, when the answer is an error envelope.
        public let code: String?
        /// The envelope's `error.message`.
        public let message: String?
        /// Whether the answer carries the `request-id` header (the body parser answers before the id exists).
        public let requestIdHeader: Bool

        /// Creates an answer.
        public init(status: Int, code: String?, message: String?, requestIdHeader: Bool) {
            self.status = status
            self.code = code
            self.message = message
            self.requestIdHeader = requestIdHeader
        }
    }

    /// Unique in the list, e.g. `create-malformed-json-500`.
    public let id: String
    /// The contract whose documented answer the server gets wrong.
    public let contractID: String
    /// The named response example (the documented answer) the server does not give.
    public let example: String
    /// Why the defect is tolerated for now: a person must be able to judge whether it still holds.
    public let reason: String
    /// The request that sets it off, for the mock backend's `--with-known-defects`.
    public let trigger: Trigger?
    /// The server's actual answer.
    public let actual: Answer
    /// The day after which the entry no longer excuses anything (`YYYY-MM-DD`), if it has one.
    public let expires: String?
    /// The defects file, for reports.
    public let file: String
    /// The entry's JSON pointer in that file.
    public let pointer: String

    /// Creates an entry.
    public init(id: String, contractID: String, example: String, reason: String, trigger: Trigger?, actual: Answer,
                expires: String? = nil, file: String = KnownDefect.fileName, pointer: String = "") {
        self.id = id
        self.contractID = contractID
        self.example = example
        self.reason = reason
        self.trigger = trigger
        self.actual = actual
        self.expires = expires
        self.file = file
        self.pointer = pointer
    }

    /// The defects file's name inside a contracts folder.
    public static let fileName = "known-defects.json"

    /// Today's date in UTC as `YYYY-MM-DD`, the form `expires` is compared in.
    public static func today(_ now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }

    /// Whether the entry has expired by `today` (`YYYY-MM-DD`): an expired entry excuses nothing.
    public func isExpired(today: String) -> Bool {
        expires.map { today > $0 } ?? false
    }

    /// `contract › example`, the name verify gives the check this entry excuses.
    public var checkName: String { "\(contractID) › \(example)" }
}

extension Array where Element == KnownDefect {
    /// The entries still in force on `today` (`YYYY-MM-DD`, UTC): an expired entry excuses nothing.
    public func inForce(today: String) -> [KnownDefect] {
        filter { !$0.isExpired(today: today) }
    }

    /// The entry for a request the mock backend classifies as `trigger` on `contractID`, if the list has one.
    public func defect(contractID: String, trigger: KnownDefect.Trigger) -> KnownDefect? {
        first { $0.contractID == contractID && $0.trigger == trigger }
    }
}
