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
        case endpointRemoved, endpointAdded, contractRenamed
        case statusRemoved, statusAdded, successStatusChanged
        case responseFieldRemoved, responseFieldAdded, responseFieldNullable, responseFieldOptional
        case requestFieldAddedRequired, requestFieldAddedOptional, requestFieldMadeRequired, requestFieldMadeOptional
        case requestFieldRemoved
        case typeChanged, typeWidened, typeNarrowed
        case enumNarrowed, enumWidened
        case limitTightened, limitWidened
        case authChanged, authAdded, authRemoved
        case contentTypeChanged
        case parameterAddedRequired, parameterAddedOptional, parameterRemoved, parameterMadeRequired, parameterMadeOptional
        case headerRemoved, headerAdded
        case schemaChanged
    }

    /// Breaking or compatible.
    public let severity: Severity
    /// The change class.
    public let kind: Kind
    /// The contract id (the new one when both exist).
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
