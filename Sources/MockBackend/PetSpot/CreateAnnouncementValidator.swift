import ContractKit
import Foundation

/// Checks a create body the way the real backend's strict zod object does, and answers its first issue exactly.
///
/// The order is the real one: every property in the order of the contract schema's `properties`, then unknown
/// properties, then the contact rule. Values are trimmed before the format rules, `null` is a wrong type (never
/// "absent"), and the messages are zod's and the backend's own.
public struct CreateAnnouncementValidator: Sendable {
    /// The schema name in `contracts/schemas/`.
    public static let schemaName = "CreateAnnouncementRequest"

    /// The schema's `properties` keys in order: the order the real backend checks fields in.
    let propertyOrder: [String]
    private let known: Set<String>

    /// The contracts have no `CreateAnnouncementRequest` schema, or it is not an object schema with `properties`.
    public struct MissingSchema: Error, Sendable, CustomStringConvertible {
        /// What is missing, for a person.
        public var description: String {
            "the contracts have no usable schemas/\(CreateAnnouncementValidator.schemaName).json (an object schema with \"properties\" is needed)"
        }
    }

    /// A validator using the contract set's `CreateAnnouncementRequest` schema for the property order.
    public init(contracts: ContractSet) throws(MissingSchema) {
        guard let schema = contracts.schema(named: Self.schemaName), let properties = schema["properties"]?.objectValue else {
            throw MissingSchema()
        }
        self.propertyOrder = properties.keys
        self.known = Set(properties.keys)
    }

    /// The error the real backend answers for `body` (nil = no JSON body was parsed), or nil when it is valid.
    ///
    /// `today` (`YYYY-MM-DD`, UTC) bounds `lastSeenDate`.
    public func firstError(in body: JSONValue?, today: String) -> PetSpotError? {
        guard let body else { return PetSpotError(.badRequest, "MISSING_VALUE", "Required") }
        guard let object = body.objectValue else {
            return .invalidFormat("Expected object, received \(Self.zodType(body))")
        }
        for name in propertyOrder {
            if let problem = Self.check(name, object[name], today: today) { return problem }
        }
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            return PetSpotError(.badRequest, "INVALID_FIELD", "\(unknown) is not a valid field", field: unknown)
        }
        let hasContact = ["email", "phone"].contains { object[$0]?.stringValue.map { !$0.trimming(.whitespacesAndNewlines).isEmpty } == true }
        if !hasContact {
            return PetSpotError(.badRequest, "MISSING_CONTACT", "at least one contact method (email or phone) is required", field: "contact")
        }
        return nil
    }

    /// The first issue of one property, or nil.
    static func check(_ name: String, _ value: JSONValue?, today: String) -> PetSpotError? {
        func wrongType(_ expected: String) -> PetSpotError {
            .invalidFormat("Expected \(expected), received \(value.map(zodType) ?? "undefined")", field: name)
        }
        func invalid(_ message: String) -> PetSpotError { .invalidFormat(message, field: name) }
        func required() -> PetSpotError { PetSpotError(.badRequest, "MISSING_VALUE", "Required", field: name) }
        switch name {
        case "species", "sex":
            guard let value else { return required() }
            guard let s = value.stringValue else { return wrongType("string") }
            return s.trimming(.whitespacesAndNewlines).isEmpty ? PetSpotError(.badRequest, "MISSING_VALUE", "cannot be empty", field: name) : nil
        case "age":
            guard let value else { return nil }
            guard let n = value.numberValue else { return wrongType("number") }
            if n.rounded() != n { return invalid("Expected integer, received float") }
            return n <= 0 ? invalid("age must be a positive integer") : nil
        case "microchipNumber":
            guard let value else { return nil }
            guard let s = value.stringValue else { return wrongType("string") }
            let trimmed = s.trimming(.whitespacesAndNewlines)
            return !trimmed.isEmpty && trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? nil : invalid("must contain only digits")
        case "locationLatitude", "locationLongitude":
            guard let value else { return required() }
            guard let n = value.numberValue else { return wrongType("number") }
            let (limit, word) = name == "locationLatitude" ? (90.0, "latitude") : (180.0, "longitude")
            return abs(n) <= limit ? nil : invalid("\(word) must be between -\(Int(limit)) and \(Int(limit))")
        case "email":
            guard let value else { return nil }
            guard let s = value.stringValue else { return wrongType("string") }
            let trimmed = s.trimming(.whitespacesAndNewlines)
            return trimmed.isEmpty || isEmail(trimmed) ? nil : invalid("invalid email format")
        case "phone":
            guard let value else { return nil }
            guard let s = value.stringValue else { return wrongType("string") }
            let trimmed = s.trimming(.whitespacesAndNewlines)
            return trimmed.isEmpty || trimmed.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) ? nil : invalid("invalid phone format")
        case "lastSeenDate":
            guard let value else { return required() }
            guard let s = value.stringValue else { return wrongType("string") }
            let trimmed = s.trimming(.whitespacesAndNewlines)
            guard isDateShape(trimmed) else { return invalid("invalid date format (expected YYYY-MM-DD)") }
            // JavaScript's Date rolls `2025-02-30` over to March 2 and calls `2025-02-32` invalid; the backend's future
            // check fails for an invalid date, so it answers "in the future" (petspot-api.md, "Quirks").
            guard let day = Timestamp.javaScriptDay(trimmed), day <= today else { return invalid("lastSeenDate cannot be in the future") }
            return nil
        case "status":
            let message = "status must be either MISSING or FOUND"
            guard let value else { return PetSpotError(.badRequest, "MISSING_VALUE", message, field: name) }
            return value.stringValue == "MISSING" || value.stringValue == "FOUND" ? nil : invalid(message)
        default:
            // petName, breed, description, reward, and any optional text a later schema adds.
            guard let value else { return nil }
            return value.stringValue == nil ? wrongType("string") : nil
        }
    }

    /// zod's name for a JSON value's type in "received …".
    static func zodType(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// `^[^\s@]+@[^\s@]+\.[^\s@]+$`, without a regex engine.
    static func isEmail(_ s: String) -> Bool {
        // One pass: no white space, exactly one @ and not first, and a dot after it with a character between them and
        // a character after the dot.
        var at: Int? = nil
        var dotAfterAt = false, dotFollowed = false
        for (i, scalar) in s.unicodeScalars.enumerated() {
            if isWhitespace(scalar) { return false }
            if dotAfterAt { dotFollowed = true }
            if scalar == "@" {
                if at != nil || i == 0 { return false }
                at = i
            } else if scalar == ".", let at, i > at + 1 {
                dotAfterAt = true
            }
        }
        return dotFollowed
    }

    /// `scalar.properties.isWhitespace`, answered without the Unicode property look-up for ASCII: that look-up per
    /// character was about a third of a create's time for a 64,000-character email (issue 29).
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        guard v >= 0x80 else { return v == 0x20 || (0x09...0x0D).contains(v) }
        return scalar.properties.isWhitespace
    }

    /// `^\d{4}-\d{2}-\d{2}$`.
    static func isDateShape(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count == 10 else { return false }
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 7 {
                if b != UInt8(ascii: "-") { return false }
            } else if !(0x30...0x39).contains(b) {
                return false
            }
        }
        return true
    }
}
