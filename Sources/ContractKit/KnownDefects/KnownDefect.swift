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

    /// What an entry covers: one documented answer, or a layer of the service in front of many endpoints.
    public enum Scope: Sendable, Equatable {
        /// One contract's named response example.
        case example(contractID: String, example: String)
        /// A layer `service.json` states for the whole service (`bodyParser`): the entry covers every endpoint that layer
        /// serves, contracts added later included.
        case service(ServiceLayer)
    }

    /// The layers of the service a known defect may be stated for, each with the endpoints it serves and its triggers.
    public enum ServiceLayer: String, Sendable, CaseIterable {
        /// The JSON body parser in front of every endpoint whose contract takes a JSON body (`service.json` `bodyParser`).
        case bodyParser

        /// The triggers this layer's failures are.
        public var triggers: [Trigger] {
            switch self {
            case .bodyParser: return [.malformedJSON, .jsonRootNotContainer, .unsupportedCharset]
            }
        }

        /// Which endpoints it serves, for people.
        public var endpoints: String {
            switch self {
            case .bodyParser: return "every endpoint that takes a JSON body"
            }
        }
    }

    /// Unique in the list, e.g. `create-malformed-json-500`.
    public let id: String
    /// What the entry covers.
    public let scope: Scope
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

    /// Creates an entry for one documented answer.
    public init(id: String, contractID: String, example: String, reason: String, trigger: Trigger?, actual: Answer,
                expires: String? = nil, file: String = KnownDefect.fileName, pointer: String = "") {
        self.init(id: id, scope: .example(contractID: contractID, example: example), reason: reason, trigger: trigger, actual: actual,
                  expires: expires, file: file, pointer: pointer)
    }

    /// Creates an entry for `scope`.
    public init(id: String, scope: Scope, reason: String, trigger: Trigger?, actual: Answer,
                expires: String? = nil, file: String = KnownDefect.fileName, pointer: String = "") {
        self.id = id
        self.scope = scope
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

    /// The contract whose documented answer the server gets wrong; nil for a service-wide entry.
    public var contractID: String? {
        if case .example(let contractID, _) = scope { return contractID }
        return nil
    }

    /// The named response example the server does not give; nil for a service-wide entry.
    public var example: String? {
        if case .example(_, let example) = scope { return example }
        return nil
    }

    /// The service layer a service-wide entry is stated for.
    public var serviceLayer: ServiceLayer? {
        if case .service(let layer) = scope { return layer }
        return nil
    }

    /// `contract › example` (the name verify gives the check this entry excuses), or `service › layer (endpoints)`.
    public var checkName: String {
        switch scope {
        case .example(let contractID, let example): return "\(contractID) › \(example)"
        case .service(let layer): return "service › \(layer.rawValue) (\(layer.endpoints))"
        }
    }

    /// Whether a request to `contractID` classified as `trigger` is this entry's: the same contract and trigger, or a
    /// trigger of the service layer the entry is stated for (the mock classifies body-parser triggers only on endpoints
    /// that take a JSON body, the layer's endpoints).
    public func covers(contractID: String, trigger: Trigger) -> Bool {
        guard self.trigger == trigger else { return false }
        switch scope {
        case .example(let own, _): return own == contractID
        case .service(let layer): return layer.triggers.contains(trigger)
        }
    }
}

extension Array where Element == KnownDefect {
    /// The entries still in force on `today` (`YYYY-MM-DD`, UTC): an expired entry excuses nothing.
    public func inForce(today: String) -> [KnownDefect] {
        filter { !$0.isExpired(today: today) }
    }

    /// The entry for a request the mock backend classifies as `trigger` on `contractID`, if the list has one: an entry
    /// for that contract first, else a service-wide one.
    public func defect(contractID: String, trigger: KnownDefect.Trigger) -> KnownDefect? {
        first { $0.contractID == contractID && $0.trigger == trigger } ?? first { $0.covers(contractID: contractID, trigger: trigger) }
    }
}
