/// What a `list` action shows: which records belong, the named filter over the query, the order and the wrapper.
public struct ListDeclaration: Sendable, Equatable {
    /// A named filter over the query parameters and record fields.
    public struct Filter: Sendable, Equatable {
        /// The named algorithm, e.g. `great-circle-sqlite`.
        public let algorithm: String
        /// The algorithm's inputs → the query parameters that give them.
        public let parameters: [String: String]
        /// The algorithm's record inputs → the record fields that give them.
        public let fields: [String: String]
    }

    /// The filters the executor implements, with the parameters and record fields each needs.
    public static let algorithms: [String: (parameters: [String], fields: [String])] = [
        "great-circle-sqlite": (["lat", "lng", "range"], ["latitude", "longitude"])
    ]
    /// The orders the executor implements.
    public static let orders = ["creation"]

    /// Fields that must not be null for a record to be listed.
    public let notNull: [String]
    /// The filter, if any.
    public let filter: Filter?
    /// The order of the list.
    public let order: String
    /// The member of the answer object holding the array; nil: the array is the answer.
    public let wrap: String?

    static func read(_ object: ObjectReader, contract: Contract, file: String, problems: inout [LintProblem]) -> ListDeclaration? {
        let before = problems.count
        var notNull: [String] = []
        if let value = object.object["where"] {
            if case .object(let members) = value {
                for (field, condition) in members {
                    if condition == .object(["not": .null]) { notNull.append(field) } else {
                        problems.append(LintProblem(file: file, pointer: JSONPointer.appending(object.at("where"), field),
                            message: "a list condition is {\"not\": null} (the field must be set)"))
                    }
                }
            } else {
                problems.append(LintProblem(file: file, pointer: object.at("where"), message: "where must be an object of field → condition"))
            }
        }
        var filter: Filter?
        if let value = object.object["filter"], let reader = ObjectReader(value, file: file, pointer: object.at("filter"), what: "filter", problems: &problems) {
            reader.checkKeys(allowed: ["algorithm", "parameters", "fields"], required: ["algorithm", "parameters", "fields"], what: "filter", problems: &problems)
            let algorithm = reader.string("algorithm", problems: &problems) ?? ""
            let parameters = reader.stringMap("parameters", problems: &problems)
            let fields = reader.stringMap("fields", problems: &problems)
            if let needs = algorithms[algorithm] {
                for name in needs.parameters where parameters[name] == nil {
                    problems.append(LintProblem(file: file, pointer: reader.at("parameters"), message: "\(algorithm) needs the parameter \"\(name)\""))
                }
                for name in needs.fields where fields[name] == nil {
                    problems.append(LintProblem(file: file, pointer: reader.at("fields"), message: "\(algorithm) needs the record field \"\(name)\""))
                }
                for (name, query) in parameters.sorted(by: { $0.key < $1.key }) where !contract.request.query.contains(where: { $0.name == query }) {
                    problems.append(LintProblem(file: file, pointer: JSONPointer.appending(reader.at("parameters"), name),
                        message: "\(query) is not a query parameter of this contract"))
                }
            } else if reader.object["algorithm"]?.stringValue != nil {
                problems.append(LintProblem(file: file, pointer: reader.at("algorithm"),
                    message: "unknown filter \"\(algorithm)\"; known: \(algorithms.keys.sorted().joined(separator: ", "))"))
            }
            filter = Filter(algorithm: algorithm, parameters: parameters, fields: fields)
        }
        let order = object.string("order", problems: &problems) ?? "creation"
        if !orders.contains(order) {
            problems.append(LintProblem(file: file, pointer: object.at("order"), message: "unknown order \"\(order)\"; known: \(orders.joined(separator: ", "))"))
        }
        let wrap = object.string("wrap", problems: &problems)
        guard problems.count == before else { return nil }
        return ListDeclaration(notNull: notNull, filter: filter, order: order, wrap: wrap)
    }
}
