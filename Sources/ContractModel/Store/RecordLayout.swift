import ContractKit

/// One collection's records as the store keeps them, worked out once at start from its `CollectionDeclaration`: where
/// each stored field's value comes from on create, and which fields are the key, the secret, the unique ones, the list
/// filter's inputs and the ones a list needs set.
///
/// A create then fills the fields by index and writes the JSON straight from precomputed key bytes: no schema, no name
/// lookup, no intermediate object per request.
final class RecordLayout: Sendable {
    /// Where a stored field's value comes from on create.
    enum Source: Sendable {
        /// The sent property at this index of the create's body rules, stored by its `StoragePlan`.
        case sent(Int)
        /// The value of the generated field at this index of the create's `generate`.
        case generated(Int)
        /// The declared starting value (`x-state.initial`).
        case initial(JSONValue)
        /// Neither sent nor made: null.
        case absent
    }

    /// The collection's index in the store.
    let index: Int
    /// The collection's name.
    let name: String
    /// The stored fields in declared order; nil: a record is the sent object plus the generated fields.
    let fields: [String]?
    /// Per stored field: `"name":`, preceded by a comma for all but the first.
    let keyBytes: [[UInt8]]
    /// Per stored field, where a create takes its value (empty when `fields` is nil).
    let sources: [Source]
    /// The field naming a record.
    let keyField: String?
    /// Whether the create generates the key (else it is sent).
    let keyIsGenerated: Bool
    /// The field kept apart from the record (answered once on create); nil: none.
    let secretField: String?
    /// Fields no two records share (non-empty strings only).
    let unique: [String]
    /// The record fields feeding the list filter's record inputs, in the order its algorithm declares them
    /// (`ListDeclaration.algorithms`: a point's two coordinates); nil: no filter.
    let filterFields: [String]?
    /// Fields a record needs set to be listed.
    let listedWhenSet: [String]
    /// The stored file's declaration (its published address and field); nil: no files.
    let file: FileDeclaration?
    /// The name the file's address names the record by (the attach-file's key).
    let fileKey: String?
    /// The fields the create fills with the time (`now-iso-ms`).
    let timeFields: Set<String>
    /// Indices into `fields` of `unique`, the filter inputs and `listedWhenSet` (nil where a name is not stored).
    let uniqueSlots: [Int?]
    let filterSlots: [Int?]
    let listedSlots: [Int?]

    init(index: Int, declaration: CollectionDeclaration, create: StateDeclaration?, createRules: BodyRules?) {
        self.index = index
        name = declaration.name
        fields = declaration.fields
        keyField = declaration.keyField
        keyIsGenerated = declaration.generated.contains { $0.field == declaration.keyField }
        secretField = declaration.secret.first
        unique = declaration.unique
        file = declaration.file
        fileKey = declaration.fileKey
        timeFields = Set(declaration.generated.filter { $0.generator == .nowISOMilliseconds }.map(\.field))
        listedWhenSet = declaration.listedWhenSet
        filterFields = declaration.list?.filter.flatMap { filter in
            guard let inputs = ListDeclaration.algorithms[filter.algorithm]?.fields, inputs.count == 2 else { return nil }
            let fields = inputs.compactMap { filter.fields[$0] }
            return fields.count == inputs.count ? fields : nil
        }
        let names = fields ?? []
        keyBytes = names.enumerated().map { i, name in
            var bytes: [UInt8] = i == 0 ? [] : [UInt8(ascii: ",")]
            bytes += JSONValue.string(name).serializedBytes()
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
        let generated = create?.generate ?? []
        let properties = createRules?.properties ?? []
        sources = names.map { name in
            if let i = generated.firstIndex(where: { $0.field == name }) { return .generated(i) }
            if let i = properties.firstIndex(where: { $0.name == name }) { return .sent(i) }
            if let value = create?.initial[name] { return .initial(value) }
            return .absent
        }
        func slot(_ name: String) -> Int? { names.firstIndex(of: name) }
        uniqueSlots = unique.map(slot)
        filterSlots = (filterFields ?? []).map(slot)
        listedSlots = listedWhenSet.map(slot)
    }

    /// The layouts of every collection `contracts` declare, in their order.
    static func all(_ contracts: ContractSet) -> [RecordLayout] {
        contracts.state.collections.enumerated().map { i, declaration in
            let create = declaration.createContractID
            return RecordLayout(index: i, declaration: declaration, create: create.flatMap { contracts.state.declarations[$0] },
                                createRules: create.flatMap { contracts.requestRules[$0]?.body })
        }
    }

    /// The JSON of stored `values` (parallel to `fields`), written from the precomputed key bytes.
    func render(_ values: [JSONValue]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(512)
        for (i, value) in values.enumerated() {
            out += keyBytes[i]
            value.appendSerialized(to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return [UInt8](out)
    }

    /// What the store derives from stored `values` (parallel to `fields`).
    func derived(_ values: [JSONValue]) -> RecordDerived {
        func value(_ slot: Int?) -> JSONValue? { slot.map { values[$0] } }
        return derived(value)
    }

    /// What the store derives from a record `object` (a data directory's, a fixture's, a record without stored fields).
    func derived(object: JSONObject) -> RecordDerived {
        let unique = unique.map { object[$0]?.stringValue ?? "" }
        func input(_ i: Int) -> Double { filterFields.flatMap { i < $0.count ? object[$0[i]]?.numberValue : nil } ?? .nan }
        return RecordDerived(
            unique: unique.allSatisfy(\.isEmpty) ? [] : unique, filterInputs: (input(0), input(1)),
            listed: listedWhenSet.allSatisfy { object[$0].map { !$0.isNull } ?? false })
    }

    private func derived(_ value: (Int?) -> JSONValue?) -> RecordDerived {
        var unique: [String] = []
        if uniqueSlots.contains(where: { value($0)?.stringValue?.isEmpty == false }) {
            unique = uniqueSlots.map { value($0)?.stringValue ?? "" }
        }
        func input(_ i: Int) -> Double { i < filterSlots.count ? value(filterSlots[i])?.numberValue ?? .nan : .nan }
        return RecordDerived(
            unique: unique, filterInputs: (input(0), input(1)),
            listed: listedSlots.allSatisfy { value($0).map { !$0.isNull } ?? false })
    }
}

/// What the store keeps beside a record's JSON so lists and uniqueness never parse it.
struct RecordDerived: Sendable {
    /// The values of the collection's unique fields in declared order (`""` for none); empty when none is set, so most
    /// records hold no array at all.
    var unique: [String]
    /// The list filter's record inputs in the order its algorithm declares them (NaN when the record has none, which
    /// no distance is ever less than).
    var filterInputs: (Double, Double)
    /// Whether lists show the record (every `where` field set).
    var listed: Bool

    /// The value of unique field `i`, nil when it is not set.
    func unique(_ i: Int) -> String? {
        i < unique.count && !unique[i].isEmpty ? unique[i] : nil
    }
}
