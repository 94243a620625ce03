import ContractKit
import Foundation

/// Decides whether a create body is valid with the contract's `CreateAnnouncementRequest` schema, and turns the first problem into the real backend's error.
public struct CreateAnnouncementValidator: Sendable {
    /// The schema name in `contracts/schemas/`.
    public static let schemaName = "CreateAnnouncementRequest"

    private let contracts: ContractSet
    private let schema: JSONValue
    /// The schema's `properties` keys in order: the order the real backend checks fields in.
    private let propertyOrder: [String: Int]
    private let requiredProperties: Set<String>

    /// The contracts have no `CreateAnnouncementRequest` schema, or it is not an object schema with `properties`.
    public struct MissingSchema: Error, Sendable, CustomStringConvertible {
        /// What is missing, for a person.
        public var description: String {
            "the contracts have no usable schemas/\(CreateAnnouncementValidator.schemaName).json (an object schema with \"properties\" is needed)"
        }
    }

    /// A schema violation or a rule only the backend knows, in one shape so they can be ordered together.
    struct Problem: Sendable {
        let pointer: String
        let keyword: String
        let message: String
    }

    /// A validator using the contract set's `CreateAnnouncementRequest` schema.
    public init(contracts: ContractSet) throws(MissingSchema) {
        guard let schema = contracts.schema(named: Self.schemaName), let properties = schema["properties"]?.objectValue else {
            throw MissingSchema()
        }
        self.contracts = contracts
        self.schema = schema
        self.propertyOrder = Dictionary(uniqueKeysWithValues: properties.keys.enumerated().map { ($1, $0) })
        self.requiredProperties = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// The error the real backend answers for `body`, or nil when it is valid; `today` (`YYYY-MM-DD`, UTC) bounds `lastSeenDate`.
    public func firstError(in body: JSONValue, today: String) -> PetSpotError? {
        guard let object = body.objectValue else {
            return .invalidFormat("The request body must be a JSON object")
        }
        let fromSchema = contracts.validate(body, against: schema).map { Problem(pointer: $0.pointer, keyword: $0.keyword, message: $0.message) }
        let violations = ordered(fromSchema + backendRules(object, today: today))
        guard let first = violations.first else { return nil }
        return map(first, in: object)
    }

    /// What the backend checks beyond the schema: blank required strings and dates that are malformed or in the future.
    private func backendRules(_ object: JSONObject, today: String) -> [Problem] {
        var extra: [Problem] = []
        for name in requiredProperties {
            if let s = object[name]?.stringValue, s.isBlank {
                extra.append(Problem(pointer: "/\(name)", keyword: "blank", message: "\(name) must not be blank"))
            }
        }
        if let date = object["lastSeenDate"]?.stringValue, !date.trimming(.whitespaces).isEmpty {
            if !CalendarDate.isValid(date) {
                extra.append(Problem(pointer: "/lastSeenDate", keyword: "format", message: "lastSeenDate must be a date in YYYY-MM-DD format"))
            } else if date > today {
                extra.append(Problem(pointer: "/lastSeenDate", keyword: "notInFuture", message: "lastSeenDate must not be in the future"))
            }
        }
        return extra
    }

    /// Unknown properties first, then property by property in schema order, then the rest (the contact rule); stable within a group.
    private func ordered(_ violations: [Problem]) -> [Problem] {
        func rank(_ v: Problem) -> (Int, Int) {
            if v.keyword == "additionalProperties" { return (0, 0) }
            if let name = Self.property(of: v.pointer), let index = propertyOrder[name] { return (1, index) }
            return (2, 0)
        }
        return violations.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    private func map(_ violation: Problem, in object: JSONObject) -> PetSpotError {
        let field = Self.property(of: violation.pointer)
        switch violation.keyword {
        case "additionalProperties":
            let name = field ?? "unknown"
            return PetSpotError(.badRequest, "INVALID_FIELD", "\(name) is not an allowed field", field: name)
        case "required":
            let name = field ?? "unknown"
            return PetSpotError(.badRequest, "MISSING_VALUE", "\(name) is required", field: name)
        case "anyOf" where violation.pointer.isEmpty:
            return PetSpotError(.badRequest, "MISSING_CONTACT", "Either email or phone is required", field: "contact")
        default:
            if let name = field, requiredProperties.contains(name), let s = object[name]?.stringValue,
                s.isBlank
            {
                return PetSpotError(.badRequest, "MISSING_VALUE", "\(name) is required", field: name)
            }
            return .invalidFormat(violation.message, field: field)
        }
    }

    /// The top-level property a JSON pointer starts with (`/email` and `/email/x` give `email`), unescaping `~1` and `~0`.
    static func property(of pointer: String) -> String? {
        guard pointer.hasPrefix("/") else { return nil }
        let first = pointer.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return first.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}
