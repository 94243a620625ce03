import Foundation

/// One difference between two versions of the contracts, classified for existing clients.
public struct ContractChange: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Whether existing clients can break.
    public enum Severity: String, Sendable, Codable {
        /// Existing clients may fail against the new version.
        case breaking
        /// Existing clients keep working.
        case compatible
    }

    /// The change classes `spotcheck diff` knows.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// An endpoint (method + path) disappeared, appeared, or kept its route under another id.
        case endpointRemoved, endpointAdded, contractRenamed
        /// A documented answer (status + code) disappeared or appeared, or the 2xx status changed.
        case statusRemoved, statusAdded, successStatusChanged
        /// A response field disappeared, appeared, may now be null, or may now be absent.
        case responseFieldRemoved, responseFieldAdded, responseFieldNullable, responseFieldOptional
        /// A request field (or multipart part) was added or changed whether it is required.
        case requestFieldAddedRequired, requestFieldAddedOptional, requestFieldMadeRequired, requestFieldMadeOptional
        /// A request field or part is no longer described.
        case requestFieldRemoved
        /// The JSON type of a value changed, or admits more or fewer types.
        case typeChanged, typeWidened, typeNarrowed
        /// An enumeration (or const) allows fewer or more values.
        case enumNarrowed, enumWidened
        /// A size, range, length, pattern or format limit became stricter or looser.
        case limitTightened, limitWidened
        /// Authentication changed scheme or credentials, became required, or was dropped.
        case authChanged, authAdded, authRemoved
        /// A request or response media type changed.
        case contentTypeChanged
        /// A path, query or header parameter was added, removed or changed whether it is required.
        case parameterAddedRequired, parameterAddedOptional, parameterRemoved, parameterMadeRequired, parameterMadeOptional
        /// A response header is no longer always sent, is new, or (`service.json`) every answer carries it with another value.
        case headerRemoved, headerAdded, headerChanged
        /// An `x-also-at` route no longer answers, or is new.
        case routeRemoved, routeAdded
        /// `service.json`'s routing matches fewer requests (case, trailing slash, HEAD), or more.
        case routingTightened, routingLoosened
        /// An answer `service.json` states (not found, the body parser's, the error handler's, preflights, the envelope) changed.
        case serviceAnswerChanged
        /// A schema change the diff cannot classify precisely (anyOf/oneOf/not, a body dropped).
        case schemaChanged
        /// A request an example documents in both versions gets another answer: another status or code, message or field.
        case documentedAnswerChanged
    }

    /// Breaking or compatible.
    public let severity: Severity
    /// The change class.
    public let kind: Kind
    /// The contract id (the new one when both exist), or `service` for a change of `service.json`.
    public let contract: String
    /// The contract file (new version, or old for removals), as shown to a person.
    public let file: String
    /// JSON pointer into the contract file, continued through `$ref`s as if they were inlined.
    public let pointer: String
    /// What changed, written for a person.
    public let message: String

    /// A classified change.
    public init(severity: Severity, kind: Kind, contract: String, file: String, pointer: String, message: String) {
        self.severity = severity
        self.kind = kind
        self.contract = contract
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    /// `BREAKING   contract file:pointer: message` (or `compatible`).
    public var description: String {
        let label = severity == .breaking ? "BREAKING  " : "compatible"
        return "\(label) \(contract) \(file):\(pointer.isEmpty ? "(root)" : pointer): \(message)"
    }
}
