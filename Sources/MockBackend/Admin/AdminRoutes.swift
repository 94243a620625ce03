import ContractKit
import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// The admin routes behind the dashboard: entry detail, single-rule changes, rule export, the fault catalogue and the state.
///
/// Everything the dashboard does goes through these, so anything it can do, curl can do too.
extension AdminAPI {
    func handleMore(_ request: MockRequest, route: String) async -> MockResponse {
        guard let (template, args) = AdminAPI.match(route, method: request.method.rawValue) else { return AdminAPI.notFound(request.path) }
        let arg = args.first ?? ""
        switch (template, request.method) {
        case ("", .GET), ("index.html", .GET):
            return DashboardAssets.response(for: "index.html")
        case ("dashboard/*", .GET):
            return DashboardAssets.response(for: arg)
        case ("events", .GET):
            return AdminAPI.error(.badRequest, "The event stream needs a live HTTP connection to the server; use curl -N \(AdminAPI.prefix)events.")
        case ("journal/*", .GET):
            guard let sequence = Int(arg) else { return AdminAPI.error(.badRequest, "\"\(arg)\" is not a journal sequence number.") }
            guard let entry = journal.entry(sequence: sequence) else {
                return AdminAPI.error(.notFound, "Journal entry \(sequence) is not kept (the journal keeps the newest \(journal.limit)).")
            }
            return AdminAPI.encoded(entry)
        case ("faults/active", .GET):
            return AdminAPI.json(.ok, activeRules())
        case ("faults/export", .GET):
            var response = AdminAPI.json(.ok, FaultRule.json(faults.rules))
            response.headers.add(name: "content-disposition", value: "attachment; filename=\"faults.json\"")
            return response
        case ("faults/catalogue", .GET):
            return AdminAPI.json(.ok, AdminFaultCatalogue.json(contracts: faultContracts))
        case ("faults/rules", .POST):
            return appendRules(request)
        case ("faults/rules/*", .DELETE):
            guard let index = Int(arg), faults.removeRule(at: index) else {
                return AdminAPI.error(.notFound, "There is no rule at position \(arg); GET \(AdminAPI.prefix)faults/active lists them from 0.")
            }
            return AdminAPI.json(.ok, activeRules())
        case ("faults/presets/*", .POST):
            guard let preset = FaultPreset(rawValue: arg) else {
                return AdminAPI.error(.notFound, "Unknown preset \"\(arg)\"; expected one of \(FaultPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            faults.appendRules(preset.rules(seed: AdminQuery(request.query)["seed"].flatMap { UInt64($0) }))
            return AdminAPI.json(.ok, activeRules())
        case ("faults/offline", .POST):
            // Like --offline: one unconditional refuse rule, which takes the main port down at once.
            if faults.standingRefusal == nil { faults.appendRules(FaultPreset.offline.rules()) }
            return AdminAPI.json(.ok, activeRules())
        case ("faults/offline", .DELETE):
            faults.removeRules { $0.isUnconditional && $0.fault.kindIsRefuse != nil }
            return AdminAPI.json(.ok, activeRules())
        case ("state", .GET):
            let collection = AdminQuery(request.query)["collection"]
            guard let state = await hooks?.state(StatePageRequest(query: request.query), collection: collection) else {
                return AdminAPI.error(.notFound, "This server keeps no state (it forwards to a real server).")
            }
            return AdminAPI.json(.ok, state)
        case ("state/*/*", .DELETE):
            // A collection the contracts declare, by its own name: `state/<collection>/<id>`.
            if let refused = undeclared(arg) { return refused }
            return await deleteRecord(collection: arg, id: args.last ?? "")
        case ("state/records/*/*", .DELETE):
            return await deleteRecord(collection: args.first, id: args.last ?? "")
        case ("state/*/*/photo", .GET):
            if let refused = undeclared(arg) { return refused }
            return await photo(collection: arg, id: args.last ?? "")
        case ("state/records/*/*/photo", .GET):
            return await photo(collection: args.first, id: args.last ?? "")
        case ("state/fixtures", .POST):
            return await loadFixtures(request)
        default:
            if let allowed = AdminAPI.allowedMethods[template] {
                var response = AdminAPI.error(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path); use \(allowed).")
                response.headers.add(name: "allow", value: allowed)
                return response
            }
            return AdminAPI.notFound(request.path)
        }
    }

    /// Every route with `*` for a variable segment, and the methods it accepts (for 405 answers).
    private static let allowedMethods = [
        "": "GET", "index.html": "GET", "dashboard/*": "GET", "events": "GET", "journal/*": "GET", "faults/active": "GET",
        "faults/export": "GET", "faults/catalogue": "GET", "state": "GET", "state/*/*/photo": "GET",
        "state/records/*/*/photo": "GET", "faults/rules": "POST", "faults/presets/*": "POST", "state/fixtures": "POST",
        "faults/rules/*": "DELETE", "state/*/*": "DELETE", "state/records/*/*": "DELETE", "faults/offline": "POST, DELETE",
    ]

    /// The route templates, most literal segments first (`state/records/*/*` before `state/*/*/photo`), then by name, so
    /// a route two templates match always gets the same one.
    private static let templates = allowedMethods.keys.sorted { a, b in
        let (literalA, literalB) = (a.split(separator: "/").filter { $0 != "*" }.count, b.split(separator: "/").filter { $0 != "*" }.count)
        return literalA != literalB ? literalA > literalB : a < b
    }

    /// The 404 for `state/<collection>/...` naming a collection the contracts do not declare; nil when they declare it.
    private func undeclared(_ collection: String) -> MockResponse? {
        guard let hooks else { return AdminAPI.error(.notFound, "This server keeps no state (it forwards to a real server).") }
        let names = hooks.collectionNames
        guard !names.contains(collection) else { return nil }
        return AdminAPI.error(.notFound, "No contract declares the collection \"\(collection)\"; declared: \(names.joined(separator: ", ")).")
    }

    /// The route template matching `route` and the values of its `*` segments, one allowing `method` first; nil when
    /// none matches.
    private static func match(_ route: String, method: String) -> (template: String, args: [String])? {
        let parts = route.split(separator: "/", omittingEmptySubsequences: false)
        var fallback: (template: String, args: [String])?
        for template in templates {
            let pattern = template.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == parts.count else { continue }
            var args: [String] = []
            var matched = true
            for (p, part) in zip(pattern, parts) {
                if p == "*" {
                    guard !part.isEmpty else { matched = false; break }
                    args.append(String(part).removingPercentEncoding ?? String(part))
                } else if p != part {
                    matched = false
                    break
                }
            }
            guard matched else { continue }
            if allowedMethods[template]?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == method }) == true {
                return (template, args)
            }
            if fallback == nil { fallback = (template, args) }
        }
        return fallback
    }

    /// `{"offline": Bool, "rules": [{"index", "label", "rule", "applied", "remaining", "schedule"?}]}`; `remaining` is null for rules
    /// without `times`; `schedule` says where a time-based rule stands, e.g. `outage: open, 12 s left`.
    func activeRules() -> JSONValue {
        let usage = faults.ruleUsage
        let schedules = faults.scheduleStatus
        let rows: [JSONValue] = usage.enumerated().map { i, item in
            var o = JSONObject()
            o["index"] = .number(Double(i))
            o["label"] = .string(item.rule.name ?? "rule \(i + 1)")
            o["rule"] = item.rule.json
            o["applied"] = .number(Double(item.applied))
            o["remaining"] = item.rule.times.map { .number(Double(max(0, $0 - item.applied))) } ?? .null
            if let schedule = schedules[i] { o["schedule"] = .string(schedule) }
            return .object(o)
        }
        return .object(["offline": .bool(faults.standingRefusal != nil), "rules": .array(rows)])
    }

    /// `POST faults/rules`: one rule object, a bare array or `{"rules": [...]}`, added after the current rules.
    private func appendRules(_ request: MockRequest) -> MockResponse {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(request.body.readableBytesView))
        } catch {
            return AdminAPI.error(.badRequest, "The body is not valid JSON: \(error.description).")
        }
        let file = "POST \(AdminAPI.prefix)faults/rules"
        do {
            // One rule object is anything but a rules file: a time-based rule may leave out its fault.
            let rules = value.objectValue.map { $0["rules"] == nil } == true ? [try FaultRule.parseRule(value, file: file)] : try FaultRule.parseRules(value, file: file)
            faults.appendRules(rules)
            return AdminAPI.json(.created, activeRules())
        } catch {
            return AdminAPI.error(.badRequest, error.description, pointer: error.pointer)
        }
    }

    /// `DELETE state/{collection}/{id}` (and `state/records/{collection}/{id}`).
    private func deleteRecord(collection: String?, id: String) async -> MockResponse {
        guard let hooks else { return AdminAPI.error(.notFound, "This server keeps no state (it forwards to a real server).") }
        do throws(AdminHookError) {
            guard try await hooks.deleteRecord(collection: collection, id: id) else {
                return AdminAPI.error(.notFound, "No stored record\(collection.map { " of \($0)" } ?? "") has the id \(id).")
            }
            observer?.backendForgot(ids: [id])
            return MockResponse(status: .noContent)
        } catch {
            return AdminAPI.error(error.badRequest ? .badRequest : .internalServerError, error.message)
        }
    }

    /// `GET state/{collection}/{id}/photo` (and `state/records/{collection}/{id}/photo`).
    private func photo(collection: String?, id: String) async -> MockResponse {
        guard let photo = await hooks?.photo(collection: collection, id: id) else {
            return AdminAPI.error(.notFound, "Record \(id)\(collection.map { " of \($0)" } ?? "") has no stored photo.")
        }
        return MockResponse(status: .ok, headers: ["content-type": photo.contentType], body: ByteBuffer(bytes: photo.bytes))
    }

    private func loadFixtures(_ request: MockRequest) async -> MockResponse {
        guard let hooks else { return AdminAPI.error(.notFound, "This server keeps no state (it forwards to a real server).") }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(request.body.readableBytesView))
        } catch {
            return AdminAPI.error(.badRequest, "The body is not valid JSON: \(error.description).")
        }
        do throws(AdminHookError) {
            let count = try await hooks.loadFixtures(value)
            // A fixture may replace a record the traffic created: its file and secret are the fixture's now.
            let records = (value.objectValue ?? JSONObject()).flatMap { $0.value.arrayValue ?? [] }
            observer?.backendForgot(ids: records.compactMap { $0["id"]?.stringValue })
            return AdminAPI.json(.ok, .object(["loaded": .number(Double(count))]))
        } catch {
            return AdminAPI.error(error.badRequest ? .badRequest : .internalServerError, error.message)
        }
    }

    /// A 200 with an `Encodable` value as JSON.
    static func encoded<T: Encodable>(_ value: T) -> MockResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return error(.internalServerError, "The answer could not be encoded.") }
        return MockResponse(status: .ok, headers: ["content-type": "application/json"], body: ByteBuffer(bytes: data))
    }
}
