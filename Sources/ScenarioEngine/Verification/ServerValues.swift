import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Values the server itself gave, for the path and query parameters no earlier step fills: no test data is written by
/// hand. A value comes from
/// - an OpenAPI `links` entry of an answer (`x-links`: the target operation's parameter ← a runtime expression),
/// - a `Location` header (matched against the set's path templates, else its last segment as an `id`),
/// - a create's answer (its top-level values by name: `id`, `userId`),
/// - a list's answer (the first item of each array of objects, its values by name).
///
/// A parameter takes a value of its own name; one named like `petId` or `pet_id` also takes an `id`. Among several, the
/// one from an operation whose path shares the most leading segments with the parameter's own wins, so an `{id}` of
/// `/pets/{id}` takes the id `/pets` listed, not one of `/owners`.
public struct ServerValues: Sendable {
    /// One value and where it came from, for a person.
    public struct Value: Sendable, Equatable {
        /// The value, as it goes in a path or query.
        public let value: String
        /// `item 1 of listPets's answer`, `the Location header of createPet`.
        public let source: String
        /// The path of the operation that gave it.
        let path: String
    }

    /// Values by name, first seen first.
    private var named: [String: [Value]] = [:]
    /// Values a link gives: target operation id → parameter → value.
    private var linked: [String: [String: Value]] = [:]
    /// Operations already sent to find a value (each at most once).
    var asked: Set<String> = []

    /// No values yet.
    public init() {}

    /// The value for `parameter` of `contract`, nil when no answer gave one.
    public func value(for parameter: String, of contract: Contract) -> Value? {
        if let link = linked[contract.id]?[parameter] { return link }
        let candidates = (named[parameter] ?? []) + (Self.isIdentifier(parameter) && parameter != "id" ? named["id"] ?? [] : [])
        let target = contract.pathTemplate.split(separator: "/")
        return candidates.enumerated().max { a, b in
            let (x, y) = (Self.shared(a.element.path, target), Self.shared(b.element.path, target))
            return x != y ? x < y : a.offset > b.offset
        }?.element
    }

    /// Whether `name` names an identifier by its spelling: `id`, `petId`, `pet_id`, `PetID`.
    public static func isIdentifier(_ name: String) -> Bool {
        name == "id" || name.hasSuffix("Id") || name.hasSuffix("ID") || name.lowercased().hasSuffix("_id")
    }

    /// How many leading literal segments `path` shares with `target`.
    static func shared(_ path: String, _ target: [Substring]) -> Int {
        zip(path.split(separator: "/"), target).prefix { $0 == $1 && !$0.hasPrefix("{") }.count
    }

    /// Takes what a 2xx answer of `contract` gives: its links, its `Location`, a create's values, a list's first items.
    public mutating func capture(_ contract: Contract, status: Int, headers: [(name: String, value: String)], body: Data,
                                 pathValues: [String: String], contracts: ContractSet) {
        guard (200..<300).contains(status) else { return }
        let json = try? JSONValue(parsing: body)
        let location = headers.first { $0.name.caseInsensitiveCompare("location") == .orderedSame }?.value
        for response in contract.source["responses"]?.arrayValue ?? [] where response["status"]?.intValue == status {
            for (_, link) in response["x-links"]?.objectValue ?? JSONObject() {
                guard let target = link["operation"]?.stringValue else { continue }
                for (parameter, expression) in link["parameters"]?.objectValue ?? JSONObject() {
                    guard let value = Self.evaluate(expression, body: json, location: location, pathValues: pathValues, headers: headers) else { continue }
                    linked[target, default: [:]][parameter] = Value(value: value, source: "the \(contract.id) answer's link to \(target)", path: contract.pathTemplate)
                }
            }
        }
        if let location, let path = URLComponents(string: location)?.path ?? Optional(location) {
            var matched = false
            for other in contracts.contracts {
                guard let parameters = other.path.match(path) ?? Self.matchTail(other.path, path) else { continue }
                for (name, value) in parameters where !value.isEmpty {
                    add(name, Value(value: value, source: "the Location header of \(contract.id)", path: other.pathTemplate))
                    matched = true
                }
            }
            if !matched, let last = path.split(separator: "/").last {
                add("id", Value(value: String(last), source: "the Location header of \(contract.id)", path: contract.pathTemplate))
            }
        }
        guard let json else { return }
        if contract.method == "POST", let object = json.objectValue {
            for (name, value) in object { if let text = Self.text(value) { add(name, Value(value: text, source: "the \(contract.id) answer", path: contract.pathTemplate)) } }
        }
        if contract.method == "GET" {
            var lists: [[JSONValue]] = []
            if let items = json.arrayValue { lists.append(items) }
            for (_, value) in json.objectValue ?? JSONObject() { if let items = value.arrayValue { lists.append(items) } }
            for items in lists {
                guard let first = items.first(where: { $0.objectValue != nil })?.objectValue else { continue }
                for (name, value) in first {
                    if let text = Self.text(value) { add(name, Value(value: text, source: "item 1 of the \(contract.id) list", path: contract.pathTemplate)) }
                }
            }
        }
    }

    private mutating func add(_ name: String, _ value: Value) {
        if named[name]?.contains(where: { $0.value == value.value && $0.path == value.path }) != true { named[name, default: []].append(value) }
    }

    /// A path or query value: strings as they are, integers and other numbers as JSON writes them; nil otherwise.
    public static func text(_ value: JSONValue) -> String? {
        if let text = value.stringValue { return text.isEmpty ? nil : text }
        if value.numberValue != nil { return value.serialized() }
        return nil
    }

    /// A Location path that ends with `template`'s path (a server behind a prefix answers its full path).
    static func matchTail(_ template: PathTemplate, _ path: String) -> [String: String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let wanted = template.segments.count
        guard segments.count > wanted else { return nil }
        return template.match("/" + segments.suffix(wanted).joined(separator: "/"))
    }

    /// An OpenAPI runtime expression's value: `$response.body#/pointer`, `$response.header.Name`, `$request.path.name`,
    /// or a constant.
    static func evaluate(_ expression: JSONValue, body: JSONValue?, location: String?, pathValues: [String: String],
                         headers: [(name: String, value: String)]) -> String? {
        guard let text = expression.stringValue else { return Self.text(expression) }
        if text.hasPrefix("$response.body#") {
            return body.flatMap { JSONPointer.resolve(String(text.dropFirst("$response.body#".count)), in: $0) }.flatMap(Self.text)
        }
        if text.hasPrefix("$response.header.") {
            let name = text.dropFirst("$response.header.".count)
            return headers.first { $0.name.caseInsensitiveCompare(String(name)) == .orderedSame }?.value
        }
        if text.hasPrefix("$request.path.") { return pathValues[String(text.dropFirst("$request.path.".count))] }
        return text.hasPrefix("$") ? nil : text
    }

    /// The set's list operations (GETs without path parameters) an answer could give `parameter` of `contract` from,
    /// those whose path shares the most leading segments first, each asked at most once.
    func lists(for contract: Contract, in contracts: ContractSet) -> [Contract] {
        let target = contract.pathTemplate.split(separator: "/")
        return contracts.contracts.filter { $0.method == "GET" && $0.path.parameterNames.isEmpty && $0.id != contract.id && !asked.contains($0.id) }
            .enumerated().sorted { a, b in
                let (x, y) = (Self.shared(a.element.pathTemplate, target), Self.shared(b.element.pathTemplate, target))
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
    }

    /// A record a create of the set made for the operations that need one (its credentials, an id no list gives).
    public struct CreatedRecord: Sendable, Equatable {
        /// Its id (the create's answer `id`).
        public let id: String
        /// The secret its answer handed out (a field named as a password or secret), for Basic credentials.
        public let secret: String?
        /// The create that made it.
        public let contractID: String
    }

    /// The field of a create's answer that holds the record's secret: a text named as a password or a secret.
    public static func secretField(_ object: JSONObject) -> String? {
        object.first { member in
            let name = member.key.lowercased()
            return member.value.stringValue != nil && (name.contains("password") || name.contains("secret"))
        }?.key
    }

    /// Makes one record with the set's first create that takes it (a POST with a JSON request example and a 2xx answer):
    /// its first request example, unique fields this run's own, each key the server refuses by name taken out (at most
    /// five, as exploration does with the example request, so one the document requires and the server forbids does not
    /// keep every record from being made). Its answer is captured; nil when no create made one.
    public mutating func createRecord(contracts: ContractSet, target: URL, client: ExactHTTPClient, unique: UniqueStandIns) async -> CreatedRecord? {
        for contract in contracts.contracts where contract.method == "POST" && contract.path.parameterNames.isEmpty
            && contract.request.body != nil && contract.request.contentType?.hasPrefix("multipart/") != true
            && contract.responses.contains(where: { (200..<300).contains($0.status) }) {
            guard var body = contract.request.examples.first?.body?.objectValue,
                  var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else { continue }
            let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.percentEncodedPath = base + contract.pathTemplate
            guard let url = components.url else { continue }
            var answer: ExactHTTPClient.Answer?
            for _ in 0..<6 {
                answer = try? await client.send(method: "POST", url: url, headers: ["Content-Type": "application/json"],
                                                body: unique.applied(to: .object(body)).data())
                guard let refused = answer, [400, 422].contains(refused.status),
                      let field = (try? JSONValue(parsing: refused.body))?["error"]?["field"]?.stringValue, body[field] != nil else { break }
                body[field] = nil
            }
            guard let answer, (200..<300).contains(answer.status) else { continue }
            capture(contract, status: answer.status, headers: answer.headers, body: answer.body, pathValues: [:], contracts: contracts)
            guard let object = (try? JSONValue(parsing: answer.body))?.objectValue, let id = object["id"].flatMap(Self.text) else { return nil }
            return CreatedRecord(id: id, secret: Self.secretField(object).flatMap { object[$0]?.stringValue }, contractID: contract.id)
        }
        return nil
    }

    /// Sends the set's lists, most related first, until one gives `parameter` of `contract`; returns it, or nil.
    public mutating func discover(_ parameter: String, of contract: Contract, contracts: ContractSet, target: URL,
                                  client: ExactHTTPClient) async -> Value? {
        if let found = value(for: parameter, of: contract) { return found }
        for list in lists(for: contract, in: contracts) {
            asked.insert(list.id)
            let success = list.responses.first { (200..<300).contains($0.status) }
            let query = success?.examples.lazy.compactMap(\.request).first?.query ?? [:]
            guard var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else { return nil }
            let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.percentEncodedPath = base + list.pathTemplate
            if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
            guard let url = components.url,
                  let answer = try? await client.send(method: "GET", url: url, headers: ["Accept": "application/json"], body: Data())
            else { continue }
            capture(list, status: answer.status, headers: answer.headers, body: answer.body, pathValues: [:], contracts: contracts)
            if let found = value(for: parameter, of: contract) { return found }
        }
        return nil
    }
}
