import Foundation

/// Compares two versions of a contracts folder and classifies every change as breaking or
/// compatible for clients built against the old version: the contracts, their `x-also-at` mounts and `service.json`.
///
/// Endpoints are paired by method and path shape (parameter names do not matter), so renaming a
/// contract id is not a removal. Request schemas break when the server accepts less than before;
/// response schemas break when the server may send something the old contract did not allow.
public struct ContractDiff {
    let old: ContractSet
    let new: ContractSet
    var changes: [ContractChange] = []

    /// Every change from `old` to `new`, breaking ones first, then in contract-file order.
    public static func compare(old: ContractSet, new: ContractSet) -> [ContractChange] {
        var diff = ContractDiff(old: old, new: new)
        diff.run()
        return diff.changes.filter { $0.severity == .breaking } + diff.changes.filter { $0.severity == .compatible }
    }

    static func routeKey(_ contract: Contract) -> String {
        routeKey(method: contract.method, template: contract.path)
    }

    /// Where a change is reported, and whether schemas there are read as request (true) or response.
    struct Site {
        let contract: Contract
        let pointer: String
        let isRequest: Bool

        func at(_ token: String) -> Site { Site(contract: contract, pointer: JSONPointer.appending(pointer, token), isRequest: isRequest) }
        func at(_ index: Int) -> Site { Site(contract: contract, pointer: JSONPointer.appending(pointer, index), isRequest: isRequest) }
    }

    mutating func record(_ severity: ContractChange.Severity, _ kind: ContractChange.Kind, _ site: Site, _ message: String) {
        changes.append(ContractChange(severity: severity, kind: kind, contract: site.contract.id,
                                      file: LintPrinter.displayPath(site.contract.file), pointer: site.pointer, message: message))
    }

    mutating func run() {
        let newByRoute = Dictionary(new.contracts.map { (Self.routeKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        let oldRoutes = Set(old.contracts.map(Self.routeKey))
        for before in old.contracts {
            let root = Site(contract: before, pointer: "", isRequest: false)
            guard let after = newByRoute[Self.routeKey(before)] else {
                record(.breaking, .endpointRemoved, root, "the endpoint \(before.method) \(before.pathTemplate) was removed")
                continue
            }
            if before.id != after.id {
                record(.compatible, .contractRenamed, Site(contract: after, pointer: "/id", isRequest: false),
                       "the contract id changed from \(before.id) to \(after.id)")
            }
            compareRequest(before, after)
            compareResponses(before, after)
            compareDocumentedAnswers(before, after)
        }
        for after in new.contracts where !oldRoutes.contains(Self.routeKey(after)) {
            record(.compatible, .endpointAdded, Site(contract: after, pointer: "", isRequest: false),
                   "the endpoint \(after.method) \(after.pathTemplate) was added")
        }
        compareMounts()
        compareService()
    }

    // MARK: - Requests

    mutating func compareRequest(_ before: Contract, _ after: Contract) {
        let site = Site(contract: after, pointer: "/request", isRequest: true)
        let (a, b) = (before.request, after.request)
        switch (a.auth, b.auth) {
        case (nil, let added?):
            record(.breaking, .authAdded, site.at("auth"), "the endpoint now requires \(Self.describe(added)) authentication")
        case (let removed?, nil):
            record(.compatible, .authRemoved, site.at("auth"), "the endpoint no longer requires \(Self.describe(removed)) authentication")
        case (let x?, let y?) where x.scheme.lowercased() != y.scheme.lowercased() || x.header.lowercased() != y.header.lowercased():
            record(.breaking, .authChanged, site.at("auth").at("scheme"),
                   "the auth scheme changed from \(Self.describe(x)) to \(Self.describe(y))")
        case (let x?, let y?) where x.credentials != y.credentials:
            record(.breaking, .authChanged, site.at("auth").at("credentials"),
                   "the credentials changed from \(x.credentials ?? "unspecified") to \(y.credentials ?? "unspecified")")
        default:
            break
        }
        if a.contentType != b.contentType {
            record(.breaking, .contentTypeChanged, site.at("contentType"),
                   "the request content type changed from \(a.contentType ?? "none") to \(b.contentType ?? "none")")
        }
        compareLimit("maxBodyBytes", a.maxBodyBytes, b.maxBodyBytes, site.at("maxBodyBytes"), noun: "the body size limit")
        compareLimit("maxFileBytes", a.maxFileBytes, b.maxFileBytes, site.at("maxFileBytes"), noun: "the file size limit")
        compareParameters(a.query, b.query, site.at("query"), noun: "query parameter")
        compareParameters(a.headers, b.headers, site.at("headers"), noun: "request header")
        compareParameters(before.pathParameters, after.pathParameters,
                          Site(contract: after, pointer: "/pathParameters", isRequest: true), noun: "path parameter", byPosition: true)
        for part in b.parts where !a.parts.contains(where: { $0.name == part.name }) {
            record(part.required ? .breaking : .compatible, part.required ? .requestFieldAddedRequired : .requestFieldAddedOptional,
                   site.at("parts").at(part.name), "the \(part.required ? "required" : "optional") multipart part \(part.name) was added")
        }
        for part in a.parts {
            guard let other = b.parts.first(where: { $0.name == part.name }) else {
                record(.breaking, .requestFieldRemoved, site.at("parts"), "the multipart part \(part.name) was removed; clients still send it")
                continue
            }
            if !part.required && other.required {
                record(.breaking, .requestFieldMadeRequired, site.at("parts").at(part.name), "the multipart part \(part.name) is now required")
            }
            if part.kind != other.kind {
                record(.breaking, .typeChanged, site.at("parts").at(part.name).at("kind"),
                       "the multipart part \(part.name) changed from \(part.kind) to \(other.kind)")
            }
        }
        switch (a.body, b.body) {
        case (let x?, let y?):
            compareSchema(x, old.validator, y, new.validator, site.at("body"), depth: 0)
        case (nil, _?):
            record(.breaking, .requestFieldAddedRequired, site.at("body"), "the endpoint now expects a request body")
        case (_?, nil):
            record(.breaking, .schemaChanged, site, "the request body schema was removed; clients still send a body")
        case (nil, nil):
            break
        }
    }

    mutating func compareLimit(_ name: String, _ a: Int?, _ b: Int?, _ site: Site, noun: String) {
        switch (a, b) {
        case (let x?, let y?) where y < x:
            record(.breaking, .limitTightened, site, "\(noun) (\(name)) tightened from \(x) to \(y) bytes")
        case (let x?, let y?) where y > x:
            record(.compatible, .limitWidened, site, "\(noun) (\(name)) widened from \(x) to \(y) bytes")
        case (nil, let y?):
            record(.breaking, .limitTightened, site, "\(noun) (\(name)) of \(y) bytes was introduced")
        case (let x?, nil):
            record(.compatible, .limitWidened, site, "\(noun) (\(name)) of \(x) bytes was lifted")
        default:
            break
        }
    }

    mutating func compareParameters(_ a: [ParameterSpec], _ b: [ParameterSpec], _ site: Site, noun: String, byPosition: Bool = false) {
        func same(_ x: ParameterSpec, _ y: ParameterSpec) -> Bool { x.name.lowercased() == y.name.lowercased() }
        for (i, p) in b.enumerated() {
            let counterpart = byPosition ? (i < a.count ? a[i] : nil) : a.first { same($0, p) }
            guard let q = counterpart else {
                record(p.required ? .breaking : .compatible, p.required ? .parameterAddedRequired : .parameterAddedOptional,
                       site.at(p.name), "the \(p.required ? "required" : "optional") \(noun) \(p.name) was added")
                continue
            }
            if p.required && !q.required {
                record(.breaking, .parameterMadeRequired, site.at(p.name).at("required"), "the \(noun) \(p.name) is now required")
            } else if !p.required && q.required {
                record(.compatible, .parameterMadeOptional, site.at(p.name).at("required"), "the \(noun) \(p.name) is now optional")
            }
            compareSchema(q.schema, old.validator, p.schema, new.validator, site.at(p.name).at("schema"), depth: 0)
        }
        if !byPosition {
            for q in a where !b.contains(where: { same($0, q) }) {
                record(.compatible, .parameterRemoved, site, "the \(noun) \(q.name) was removed; the server ignores it now")
            }
        }
    }

    // MARK: - Responses

    mutating func compareResponses(_ before: Contract, _ after: Contract) {
        let oldSuccess = before.successResponse?.status
        let newSuccess = after.successResponse?.status
        var successChanged = false
        if let x = oldSuccess, let y = newSuccess, x != y {
            successChanged = true
            let index = after.responses.firstIndex { $0.status == y } ?? 0
            record(.breaking, .successStatusChanged, Site(contract: after, pointer: "/responses/\(index)/status", isRequest: false),
                   "the success status changed from \(x) to \(y)")
        }
        for response in before.responses {
            guard let (index, counterpart) = after.responses.enumerated().first(where: { $0.element.label == response.label }) else {
                if successChanged && response.status == oldSuccess { continue }
                record(.breaking, .statusRemoved, Site(contract: after, pointer: "/responses", isRequest: false),
                       "the response \(response.label) (\(response.when)) was removed")
                continue
            }
            let site = Site(contract: after, pointer: JSONPointer.appending("/responses", index), isRequest: false)
            compareResponse(response, counterpart, site)
        }
        for (index, response) in after.responses.enumerated() where !before.responses.contains(where: { $0.label == response.label }) {
            if successChanged && response.status == newSuccess { continue }
            record(.compatible, .statusAdded, Site(contract: after, pointer: JSONPointer.appending("/responses", index), isRequest: false),
                   "the response \(response.label) was added")
        }
    }

    mutating func compareResponse(_ a: ResponseSpec, _ b: ResponseSpec, _ site: Site) {
        if a.contentType != b.contentType {
            record(.breaking, .contentTypeChanged, site.at("contentType"),
                   "the \(a.label) content type changed from \(a.contentType ?? "none") to \(b.contentType ?? "none")")
        }
        for header in a.headers where header.required {
            let other = b.headers.first { $0.name.lowercased() == header.name.lowercased() }
            if other?.required != true {
                record(.breaking, .headerRemoved, site.at("headers").at(header.name),
                       "the \(a.label) response no longer always carries the header \(header.name)")
            } else if let other {
                compareSchema(header.schema, old.validator, other.schema, new.validator, site.at("headers").at(header.name).at("schema"), depth: 0)
            }
        }
        for header in b.headers where !a.headers.contains(where: { $0.name.lowercased() == header.name.lowercased() }) {
            record(.compatible, .headerAdded, site.at("headers").at(header.name), "the \(b.label) response gained the header \(header.name)")
        }
        switch (a.body, b.body) {
        case (let x?, let y?):
            compareSchema(x, old.validator, y, new.validator, site.at("body"), depth: 0)
        case (_?, nil):
            record(.breaking, .responseFieldRemoved, site.at("body"), "the \(a.label) response no longer has a body")
        case (nil, _?):
            record(.compatible, .responseFieldAdded, site.at("body"), "the \(b.label) response now has a body")
        case (nil, nil):
            break
        }
    }
}
