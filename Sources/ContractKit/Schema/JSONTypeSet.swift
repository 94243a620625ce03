import Foundation

/// The JSON types a `type` keyword names; an unknown name adds nothing, so it matches no instance.
struct JSONTypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = JSONTypeSet(rawValue: 1)
    static let boolean = JSONTypeSet(rawValue: 2)
    static let string = JSONTypeSet(rawValue: 4)
    static let array = JSONTypeSet(rawValue: 8)
    static let object = JSONTypeSet(rawValue: 16)
    static let number = JSONTypeSet(rawValue: 32)
    static let integer = JSONTypeSet(rawValue: 64)

    /// The set named by a `type` value (a name or an array of names), as `SchemaValidator.matchesType` reads it.
    init(typeKeyword type: JSONValue) {
        var set: JSONTypeSet = []
        let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
        for name in names {
            switch name {
            case "null": set.insert(.null)
            case "boolean": set.insert(.boolean)
            case "string": set.insert(.string)
            case "array": set.insert(.array)
            case "object": set.insert(.object)
            case "number": set.insert(.number)
            case "integer": set.insert(.integer)
            default: break
            }
        }
        self = set
    }

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Whether `instance` is of one of the types.
    func matches(_ instance: JSONValue) -> Bool {
        switch instance {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .string: return contains(.string)
        case .array: return contains(.array)
        case .object: return contains(.object)
        case .number(let n): return contains(.number) || (contains(.integer) && n.rounded() == n)
        }
    }
}
