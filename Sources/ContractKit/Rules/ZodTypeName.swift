import Foundation

/// zod's name for the type of a value, as its "Expected …, received …" messages write it (`{received}`).
public enum ZodTypeName {
    /// `undefined` for an absent value; otherwise null, boolean, number, string, array or object.
    public static func of(_ value: JSONValue?) -> String {
        switch value {
        case nil: return "undefined"
        case .null?: return "null"
        case .bool?: return "boolean"
        case .number?: return "number"
        case .string?: return "string"
        case .array?: return "array"
        case .object?: return "object"
        }
    }
}
