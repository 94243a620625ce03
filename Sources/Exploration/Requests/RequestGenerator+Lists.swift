import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Query, path and list cases: each parameter's values around its bounds, the centre and radius together, lists holding
/// several of the run's announcements (order, null fields, membership), and centres just inside and just outside every
/// radius the cases use, the default one included.
extension RequestGenerator {
    /// Each query parameter alone around its bounds and read like `parseFloat`, then the centre and radius together.
    func queryCases(_ contract: Contract) -> [GeneratedRequest] {
        guard !contract.request.query.isEmpty else { return [] }
        let path = Self.concretePath(contract.pathTemplate)
        func with(_ items: [QueryItem]) -> GeneratedRequest {
            let label = items.isEmpty ? "no parameters" : items.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: label, query: items,
                                    exercises: queryExercises(contract, items))
        }
        var cases = [with([])]
        let names = contract.request.query.map(\.name)
        let values = ["", "0", "1", "52.2297", "-90", "90", "90.5", "-180", "180", "180.5", "abc", "12abc", "1e2", " 5", "Infinity", "0x10"]
        for parameter in contract.request.query {
            var own = values
            for key in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default"] {
                guard let bound = parameter.schema[key]?.numberValue else { continue }
                own += [bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1].map { Self.text($0) }
            }
            var seen = Set<String>()
            for value in own where seen.insert(value).inserted { cases.append(with([QueryItem(parameter.name, value)])) }
            cases.append(with([QueryItem(parameter.name, "1"), QueryItem(parameter.name, "2")]))
        }
        // The location parameters together: the list near the run's own announcements, and bounds on both sides.
        if names.count >= 2 {
            let (first, second) = centre(contract) ?? (names[0], names[1])
            let others = names.filter { $0 != first && $0 != second }
            for (a, b) in [("52.2297", "21.0122"), ("52.2297", ""), ("", "21.0122"), ("91", "21"), ("52", "181"), ("abc", "21"), ("-90", "-180")] {
                cases.append(with([QueryItem(first, a), QueryItem(second, b)]))
                for third in others {
                    for range in ["1", "0", "-1", "1.5", "abc", "20000", ""] {
                        cases.append(with([QueryItem(first, a), QueryItem(second, b), QueryItem(third, range)]))
                    }
                }
            }
            cases.append(with([QueryItem(first.uppercased(), "52.2297"), QueryItem(second.uppercased(), "21.0122")]))
            cases.append(with([QueryItem("unknown", "1")]))
        }
        return cases
    }

    /// Reads of each kind of id (or file name), after an upload where a file is read.
    func pathCases(_ contract: Contract) -> [GeneratedRequest] {
        guard contract.method == "GET", contract.pathTemplate.contains("{") else { return [] }
        let notFound = [StatedRule.id(contract.id, "/x-state", "notFound")]
        if contract.pathTemplate.contains("{file}") {
            // The photo the run uploads first, in lockstep, so both sides hold the same file under the same name.
            let upload = contracts.contracts.first { !$0.request.parts.isEmpty }.flatMap { validRequest($0, label: "a PNG photo before reading images") }
            let paths = ["{slot0}.png", "{slot0}.jpeg", "{slot0}", "{unknown}.png", "..%2Fpackage.json", ""]
            return (upload.map { [$0] } ?? []) + paths.map { file in
                GeneratedRequest(contractID: contract.id, method: "GET", path: contract.pathTemplate.replacingOccurrences(of: "{file}", with: file),
                                 label: "file " + file, exercises: file.hasPrefix("{slot0}.png") ? [] : notFound)
            }
        }
        let template = contract.pathTemplate
        let secret = secretRules(readBy: contract)
        return [("{slot0}", "the run's record"), ("{slot1}", "another record"), ("{slot2}", "the run's record with only required fields"),
                ("{unknown}", "an unknown id"), ("not-a-uuid", "an id that is not a UUID"), ("%20", "a blank id")]
            .map { id, label in
                GeneratedRequest(contractID: contract.id, method: "GET", path: template.replacingOccurrences(of: "{id}", with: id), label: label,
                                 exercises: id.hasPrefix("{slot") ? secret : notFound)
            }
    }

    /// The `secret` rules a read of `contract` shows kept: those of the creates (`x-state.secret`) of the collection it
    /// reads, whose secret fields must never come back.
    func secretRules(readBy contract: Contract) -> [String] {
        let collection = contract.source["x-state"]?["collection"]
        return contracts.contracts.filter { create in
            let state = create.source["x-state"]
            return state?["action"]?.stringValue == "create" && state?["secret"] != nil && (collection == nil || state?["collection"] == collection)
        }.map { StatedRule.id($0.id, "/x-state", "secret") }
    }

    /// Photos for every slot (so the list holds several of the run's announcements, one with only the required fields),
    /// the whole list, then centres just inside and just outside each radius.
    func listCases() -> [GeneratedRequest] {
        guard let list = listContract, let upload = contracts.contracts.first(where: { $0.request.parts.contains { $0.kind == "file" } }),
            let valid = validRequest(upload, label: "a photo before listing")
        else { return [] }
        var cases: [GeneratedRequest] = []
        for slot in 0..<Self.slots {
            var request = valid
            request.path = upload.pathTemplate.replacingOccurrences(of: "{id}", with: "{slot\(slot)}")
            if case .basic(let scheme, _, _) = request.credentials {
                request.credentials = .basic(scheme: scheme, id: .id(slot: slot), password: .password(slot: slot))
            }
            request.label = "a photo for the run's record \(slot) before listing"
            request.then = readsAfterWrite(slot: slot, photo: "png")
            cases.append(request)
        }
        let membership = StatedRule.id(list.id, "/x-state", "where")
        cases.append(GeneratedRequest(contractID: list.id, method: "GET", path: list.pathTemplate, label: "the list with several of the run's records",
                                      exercises: [membership] + queryExercises(list, [])))
        guard let (latitudeName, longitudeName) = centre(list), let location = slotLocation(list) else { return cases }
        // The radius is the parameter `x-state.filter.parameters.range` names, else the one left beside the centre.
        let rangeName = list.source["x-state"]?["filter"]?["parameters"]?["range"]?.stringValue
        let radiusParameter = list.request.query.first { parameter in
            rangeName.map { $0 == parameter.name } ?? (parameter.name != latitudeName && parameter.name != longitudeName)
        }
        let defaultRadius = radiusParameter?.schema["default"]?.numberValue
        var radii: [(value: Double, sent: String?)] = []
        if let defaultRadius { radii.append((defaultRadius, nil)) }
        if let radiusParameter {
            let minimum = radiusParameter.schema["minimum"]?.numberValue ?? 1
            for value in [minimum, defaultRadius ?? minimum, (defaultRadius ?? minimum) * 10] where !radii.contains(where: { $0.sent != nil && $0.value == value }) {
                radii.append((value, Self.text(value)))
            }
        }
        for radius in radii {
            for (side, distance) in [("just inside", radius.value - 0.05), ("just outside", radius.value + 0.05)] where distance > 0 {
                let point = Self.point(from: location, northKm: distance)
                var items = [QueryItem(latitudeName, String(format: "%.6f", point.latitude)), QueryItem(longitudeName, String(format: "%.6f", point.longitude))]
                if let radiusParameter, let sent = radius.sent { items.append(QueryItem(radiusParameter.name, sent)) }
                let label = "a centre \(side) the \(radius.sent == nil ? "default " : "")radius of \(Self.text(radius.value)) km"
                cases.append(GeneratedRequest(contractID: list.id, method: "GET", path: list.pathTemplate, label: label, query: items,
                                              exercises: [membership, StatedRule.id(list.id, "/x-state", "filter")] + queryExercises(list, items)))
            }
        }
        return cases
    }

    /// A number as a query carries it: whole numbers without a fraction.
    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The centre's two parameters: those `x-state.filter.parameters` feeds `lat` and `lng` from, else the pair
    /// `x-requires` ties together, else the first two.
    func centre(_ contract: Contract) -> (String, String)? {
        let query = contract.source["request"]?["query"]?.objectValue ?? JSONObject()
        let parameters = contract.source["x-state"]?["filter"]?["parameters"]
        if let latitude = parameters?["lat"]?.stringValue, let longitude = parameters?["lng"]?.stringValue, query[latitude] != nil, query[longitude] != nil {
            return (latitude, longitude)
        }
        for (name, parameter) in query {
            if let partner = (parameter["x-requires"] ?? parameter["schema"]?["x-requires"])?.stringValue, query[partner] != nil { return (name, partner) }
        }
        let names = contract.request.query.map(\.name)
        return names.count >= 2 ? (names[0], names[1]) : nil
    }

    /// Where the run's slots 0 and 1 are: the richest create example's values for the body properties the centre
    /// parameters filter on (named by `x-state.filter.fields`, else the properties with the same bounds).
    func slotLocation(_ list: Contract) -> (latitude: Double, longitude: Double)? {
        guard let (latitudeName, longitudeName) = centre(list), let create = bodies.first?.model,
            let richest = create.contract.request.examples.compactMap({ $0.body?.objectValue }).max(by: { $0.count < $1.count })
        else { return nil }
        let fields = list.source["x-state"]?["filter"]?["fields"]
        let filterFields = [fields?["latitude"]?.stringValue, fields?["longitude"]?.stringValue]
        func property(for parameter: String, index: Int) -> String? {
            if let field = filterFields[index], create.properties.contains(where: { $0.name == field }) { return field }
            guard let schema = list.request.query.first(where: { $0.name == parameter })?.schema else { return nil }
            return create.properties.first { property in
                property.schema["minimum"] != nil && property.schema["minimum"] == schema["minimum"] && property.schema["maximum"] == schema["maximum"]
            }?.name
        }
        guard let latitudeField = property(for: latitudeName, index: 0), let longitudeField = property(for: longitudeName, index: 1),
            let latitude = richest[latitudeField]?.numberValue, let longitude = richest[longitudeField]?.numberValue
        else { return nil }
        return (latitude, longitude)
    }

    /// The point `northKm` north of `location` (south near the pole), by the same great-circle distance the filter uses.
    static func point(from location: (latitude: Double, longitude: Double), northKm: Double) -> (latitude: Double, longitude: Double) {
        let degrees = northKm / (GreatCircle.earthRadiusKm * Double.pi / 180)
        let latitude = location.latitude + degrees <= 90 ? location.latitude + degrees : location.latitude - degrees
        return (latitude, location.longitude)
    }

    /// The query rules `items` exercise: each parameter's value read like JavaScript's `parseFloat`, against its bounds,
    /// its `x-parse`, `multipleOf`, `default` (when absent or empty) and `x-requires` (present without its partner).
    func queryExercises(_ contract: Contract, _ items: [QueryItem]) -> [String] {
        let query = contract.source["request"]?["query"]?.objectValue ?? JSONObject()
        func given(_ name: String) -> String? {
            guard let value = items.first(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
            return value
        }
        var found: [String] = []
        for (name, parameter) in query {
            let stated = StatedRules.queryKeywords(parameter)
            let schema = parameter["schema"] ?? .object(JSONObject())
            var keywords: [String] = []
            if let value = given(name) {
                if let number = JavaScriptNumber.parseFloat(value) {
                    keywords += RuleCheck.numberKeywords(number, schema: schema, validator: contracts.validator)
                    if Double(JavaScriptText.trim(value)) == nil { keywords += ["type", "maxLength"] }
                    if !number.isFinite { keywords.append("multipleOf") }
                } else {
                    keywords += ["x-parse", "type", "maxLength"]
                }
                if let partner = (parameter["x-requires"] ?? schema["x-requires"])?.stringValue, given(partner) == nil { keywords.append("x-requires") }
            } else {
                keywords += ["default", "required"]
            }
            found += stated.filter(keywords.contains).map { StatedRule.id(contract.id, "/request/query/\(name)", $0) }
        }
        return found
    }
}
