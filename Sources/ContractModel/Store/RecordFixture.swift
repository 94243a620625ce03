import ContractKit
import Foundation

/// One preloaded record from a fixtures file: the collection the file names, the record's fields as written (its
/// secret among them), and an optional photo.
public struct RecordFixture: Sendable {
    /// The collection, as the fixtures file names it (`{"<collection>": [...]}`).
    public let collection: String
    /// The record's fields as the file gives them, in its order; the collection's secret among them.
    public let fields: JSONObject
    /// The file served at the record's published address, if any.
    public let photo: RecordStore.Photo?

    /// The record's key, read with `keyField` (the collection's key; `id` where no contract says).
    public func id(keyField: String? = nil) -> String { fields[keyField ?? "id"]?.stringValue ?? "" }

    /// The key of this record in `layout`, and the record as the store keeps it: the stored fields in declared order
    /// (absent ones null, time fields the server makes defaulting to the fixtures' time), the published address of
    /// the photo, and the secret kept apart.
    func record(layout: RecordLayout) -> (id: String, record: RecordStore.Record) {
        let id = id(keyField: layout.keyField)
        var object = fields
        if let secret = layout.secretField { object[secret] = nil }
        if let file = layout.file {
            object[file.field] = photo.map { .string(DeclaredAnswer.fill(file.url, [layout.fileKey ?? "id": id, "ext": $0.type.fileExtension])) } ?? .null
        }
        let secret = layout.secretField.flatMap { fields[$0]?.stringValue } ?? ""
        guard let names = layout.fields else {
            let json = [UInt8](JSONValue.object(object).serializedBytes())
            return (id, RecordStore.Record(json: json, secret: secret, photo: photo, derived: layout.derived(object: object)))
        }
        var firstTime: JSONValue?
        let values: [JSONValue] = names.map { name in
            if let value = object[name] {
                if layout.timeFields.contains(name), firstTime == nil { firstTime = value }
                return value
            }
            if layout.timeFields.contains(name) { return firstTime ?? .string(Self.defaultTime) }
            return .null
        }
        return (id, RecordStore.Record(json: layout.render(values), secret: secret, photo: photo, derived: layout.derived(values)))
    }

    /// The time a fixture's generated time fields (`now-iso-ms`) hold when it gives none.
    static let defaultTime = "2025-11-19T10:00:00.000Z"
}

/// A fixtures file that cannot be used, naming the file, the JSON pointer and what was expected.
public struct RecordFixtureError: Error, Sendable, CustomStringConvertible {
    /// The fixtures file.
    public let file: String
    /// Where in the file, e.g. `/<collection>/2/status`.
    public let pointer: String
    /// What was wrong.
    public let reason: String

    /// `file: /pointer: reason`.
    public var description: String { "\(file): \(pointer.isEmpty ? "/" : pointer): \(reason)" }
}

extension RecordFixture {
    /// The fixtures shipped with the repository, `contracts/fixtures/pets.json`.
    public static var bundledFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("contracts/fixtures/pets.json")
    }

    /// Loads a fixtures file: `{"<collection>": [{...the record's fields..., "photo": {"base64": "..."}}], ...}`, checked
    /// against `collections` when given (see `parse`).
    public static func load(from url: URL, collections: [CollectionDeclaration]? = nil) throws(RecordFixtureError) -> [RecordFixture] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw RecordFixtureError(file: url.path, pointer: "", reason: "cannot read the file (\(FileErrorText.reason(error)))")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: data) } catch {
            throw RecordFixtureError(file: url.path, pointer: "", reason: "not valid JSON: \(error.description)")
        }
        return try parse(root, file: url.path, collections: collections)
    }

    /// Reads fixtures from an already parsed document; `file` names it in errors.
    ///
    /// Each member holding an array names a collection (a `description` text is allowed beside them). Without
    /// `collections` only the shape is checked (objects, photos that are images). With them, what the contracts
    /// declare is checked too: the collection exists, every key is a stored field, the secret or `photo`, the key is
    /// set (a UUID where the create generates `uuid-v4`), the secret has the shape of its generator, and each value
    /// has its stored field's JSON type and stays within its `minimum`/`maximum`. Enums and patterns are the API's
    /// rules, not the database's: fixtures may hold any status the database can.
    public static func parse(_ root: JSONValue, file: String, collections: [CollectionDeclaration]? = nil) throws(RecordFixtureError) -> [RecordFixture] {
        let shape = "expected an object with an array of records per collection, e.g. {\"<collection>\": [...]}"
        guard let members = root.objectValue else { throw RecordFixtureError(file: file, pointer: "", reason: shape) }
        for (name, value) in members where value.arrayValue == nil && !(name == "description" && value.stringValue != nil) {
            throw RecordFixtureError(file: file, pointer: JSONPointer.appending("", name), reason: "expected an array of \(name) records")
        }
        guard members.contains(where: { $0.value.arrayValue != nil }) else { throw RecordFixtureError(file: file, pointer: "", reason: shape) }
        var fixtures: [RecordFixture] = []
        for (name, value) in members {
            guard let items = value.arrayValue else { continue }
            let pointer = JSONPointer.appending("", name)
            var declaration: CollectionDeclaration?
            if let collections {
                declaration = collections.first { $0.name == name }
                if declaration == nil {
                    throw RecordFixtureError(file: file, pointer: pointer,
                        reason: "no contract declares the collection \(name); declared: \(collections.map(\.name).joined(separator: ", "))")
                }
            }
            var seen: Set<String> = []
            for (index, item) in items.enumerated() {
                let fixture = try parseOne(item, collection: name, declaration: declaration, file: file, pointer: JSONPointer.appending(pointer, index))
                let keyField = declaration?.keyField ?? "id"
                let id = fixture.id(keyField: keyField)
                guard seen.insert(id).inserted || id.isEmpty else {
                    throw RecordFixtureError(file: file, pointer: JSONPointer.appending(JSONPointer.appending(pointer, index), keyField), reason: "duplicate \(keyField) \(id)")
                }
                fixtures.append(fixture)
            }
        }
        return fixtures
    }

    private static func parseOne(_ value: JSONValue, collection: String, declaration: CollectionDeclaration?, file: String,
                                 pointer: String) throws(RecordFixtureError) -> RecordFixture {
        func fail(_ key: String, _ reason: String) -> RecordFixtureError {
            // Keys here are field names or `photo/base64`, a path of two.
            RecordFixtureError(file: file, pointer: key.isEmpty ? pointer : "\(pointer)/\(key)", reason: reason)
        }
        guard var object = value.objectValue else { throw fail("", "expected a \(collection) record (an object)") }
        var photo: RecordStore.Photo?
        if let photoValue = object["photo"], !photoValue.isNull {
            guard let encoded = photoValue["base64"]?.stringValue, let data = Data(base64Encoded: encoded) else {
                throw fail("photo", "expected {\"base64\": \"<image bytes in base64>\"}")
            }
            guard let type = ImageType.detect(data) else {
                throw fail("photo/base64", "the bytes are not a JPEG, PNG, GIF, WEBP, BMP, TIFF, HEIC or HEIF image")
            }
            photo = RecordStore.Photo(bytes: [UInt8](data), type: type)
        }
        object["photo"] = nil
        if let declaration { try check(&object, photo: photo, declaration: declaration, fail: fail) }
        return RecordFixture(collection: collection, fields: object, photo: photo)
    }

    /// Checks one record against its collection's declaration (see `parse`); the key is lower-cased where it is a UUID.
    private static func check(_ object: inout JSONObject, photo: RecordStore.Photo?, declaration: CollectionDeclaration,
                              fail: (String, String) -> RecordFixtureError) throws(RecordFixtureError) {
        let generated = Dictionary(declaration.generated.map { ($0.field, $0.generator) }, uniquingKeysWith: { first, _ in first })
        if let fields = declaration.fields {
            let allowed = Set(fields + declaration.secret)
            for key in object.keys where !allowed.contains(key) {
                throw fail(key, "unknown key; expected one of \((fields + declaration.secret).joined(separator: ", ")), photo")
            }
        }
        if let key = declaration.keyField {
            guard let text = object[key]?.stringValue, !text.isEmpty else { throw fail(key, "expected a non-empty string") }
            if generated[key] == .uuidV4 {
                guard UUID(uuidString: text) != nil else { throw fail(key, "expected a UUID such as 6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f") }
                object[key] = .string(text.lowercased())
            }
        }
        for field in declaration.secret {
            guard let text = object[field]?.stringValue else { throw fail(field, "expected the record's \(field) (a string)") }
            if generated[field] == .digits6, text.wholeMatch(of: /[1-9]\d{5}/) == nil { throw fail(field, "expected 6 digits, 100000...999999") }
        }
        if let file = declaration.file, let given = object[file.field], !given.isNull {
            let id = declaration.keyField.flatMap { object[$0]?.stringValue } ?? ""
            let derived = photo.map { DeclaredAnswer.fill(file.url, [declaration.fileKey ?? "id": id, "ext": $0.type.fileExtension]) }
            if given.stringValue != derived {
                throw fail(file.field, "\(file.field) is derived from the photo; expected \(derived.map { "\"\($0)\"" } ?? "null") or no \(file.field) key")
            }
        }
        for (field, schema) in declaration.fieldSchemas where field != declaration.file?.field && field != declaration.keyField {
            let types = schema["type"].map { $0.arrayValue?.compactMap(\.stringValue) ?? [$0.stringValue ?? ""] } ?? []
            guard let value = object[field] else {
                // A field that cannot be null must be given, unless the server makes it (the time fields default).
                if !types.isEmpty, !types.contains("null"), generated[field] == nil { throw fail(field, "expected a value (\(types.joined(separator: " or ")))") }
                continue
            }
            if generated[field] == .nowISOMilliseconds, !(value.stringValue.map(Timestamp.isValid) ?? false) {
                throw fail(field, "expected a timestamp like \(RecordFixture.defaultTime)")
            }
            if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
                throw fail(field, "expected \(types.joined(separator: " or ")), found \(value.serialized().prefix(80))")
            }
            if let number = value.numberValue {
                let minimum = schema["minimum"]?.numberValue ?? -.infinity
                let maximum = schema["maximum"]?.numberValue ?? .infinity
                if number < minimum || number > maximum { throw fail(field, "expected a number in \(minimum)...\(maximum)") }
            }
        }
    }

    /// Whether `value` has the JSON Schema `type`.
    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .number(let n)): return n.rounded() == n
        default: return false
        }
    }
}
