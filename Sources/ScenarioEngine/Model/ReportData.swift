import ContractKit
import ContractModel
import Foundation

/// The data a user entered across the four steps of "report a missing pet", submitted by the client under check.
public struct ReportData: Sendable, Equatable {
    /// Step 3 and step 4 fields by their API names (species, sex, lastSeenDate, locationLatitude, ..., phone, email, reward).
    public var fields: JSONObject
    /// The step 2 photo; `nil` means the user picked none.
    public var photo: Photo?

    /// Report data with these fields and photo.
    public init(fields: JSONObject, photo: Photo?) {
        self.fields = fields
        self.photo = photo
    }

    /// The text fields and numbers a report may carry, in the API's property order.
    public static let fieldNames = [
        "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "locationLatitude",
        "locationLongitude", "email", "phone", "lastSeenDate", "status", "reward",
    ]

    /// A text field's value, "" when absent.
    public func text(_ name: String) -> String { fields[name]?.stringValue ?? "" }

    /// The inputs a form of these `fields` starts with (a profile's `formFields`), "" for each the report leaves out.
    public func inputs(of fields: [String]) -> [String: String] {
        Dictionary(fields.map { ($0, text($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The report as the JSON object of the external-client protocol (photo bytes in base64).
    public var wireValue: JSONValue {
        var object = fields
        if let photo {
            object["photo"] = ["base64": .string(photo.bytes.base64EncodedString()), "mimeType": .string(photo.mimeType)]
        }
        return .object(object)
    }
}
