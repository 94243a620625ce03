import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// The admin routes the dashboard is built on: page and files, entry detail, single rules, export, presets and the token.
@Suite struct AdminDashboardRoutesTests {
    private func json(_ read: RawRead) throws -> JSONValue {
        try JSONValue(parsing: Data(read.body ?? []))
    }

    @Test func servesThePageAndItsFilesButNothingElseFromTheBundle() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/"))
            let page = await connection.readResponse()
            #expect(page.status == 200)
            #expect(page.text.contains("<title>SpotCheck dashboard</title>"))
            #expect(page.text.lowercased().contains("content-type: text/html"))
            try await connection.send(rawRequest("GET", "/__spotcheck/dashboard/app.js"))
            let script = await connection.readResponse()
            #expect(script.status == 200)
            #expect(script.text.contains("EventSource"))
            try await connection.send(rawRequest("GET", "/__spotcheck/dashboard/..%2FPackage.swift"))
            #expect(await connection.readResponse().status == 404)
            try await connection.send(rawRequest("POST", "/__spotcheck/dashboard/app.js"))
            #expect(await connection.readResponse().status == 405)
        }
    }

    @Test func entryDetailHasHeadersAndBodies() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/api/v1/announcements", body: #"{"petName":"Rex"}"#,
                                                 headers: ["Content-Type": "application/json"]))
            _ = await connection.readResponse()
            try await connection.send(rawRequest("GET", "/__spotcheck/journal/1"))
            let entry = try json(await connection.readResponse())
            #expect(entry["requestBody"]?["text"] == #"{"petName":"Rex"}"#)
            #expect(entry["contract"] == "createAnnouncement")
            #expect(entry["requestHeaders"]?.arrayValue?.contains { $0["name"] == "Content-Type" } == true)
            try await connection.send(rawRequest("GET", "/__spotcheck/journal/99"))
            #expect(await connection.readResponse().status == 404)
            try await connection.send(rawRequest("GET", "/__spotcheck/journal/abc"))
            #expect(await connection.readResponse().status == 400)
        }
    }

    @Test func singleRulesCountDownAndExportAsARulesFile() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            let rule = #"{"name": "one 503", "contract": "getAnnouncement", "times": 1, "fault": {"kind": "status", "status": 503}}"#
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/rules", body: rule, headers: jsonType))
            let added = await connection.readResponse()
            #expect(added.status == 201)
            #expect(try json(added)["rules"]?.arrayValue?.first?["remaining"] == 1)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 503)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 200)
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active"))
            let active = try json(await connection.readResponse())
            #expect(active["rules"]?.arrayValue?.first?["applied"] == 1)
            #expect(active["rules"]?.arrayValue?.first?["remaining"] == 0)
            #expect(active["offline"] == false)

            try await connection.send(rawRequest("GET", "/__spotcheck/faults/export"))
            let export = await connection.readResponse()
            #expect(export.text.lowercased().contains("content-disposition: attachment"))
            // What the dashboard exports is exactly what --faults loads.
            let reloaded = try FaultRule.parseRules(try json(export), file: "export")
            #expect(reloaded == server.faults.rules)

            try await connection.send(rawRequest("DELETE", "/__spotcheck/faults/rules/0"))
            #expect(await connection.readResponse().status == 200)
            #expect(server.faults.rules.isEmpty)
            try await connection.send(rawRequest("DELETE", "/__spotcheck/faults/rules/0"))
            #expect(await connection.readResponse().status == 404)
        }
    }

    @Test func addingARuleKeepsTheOthersCounters() async throws {
        let first = FaultRule(name: "first", selector: FaultSelector(contract: "getAnnouncement"), times: 2, fault: .status(500))
        try await withServer(rules: [first]) { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 500)
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/rules", body: #"{"contract": "uploadPhoto", "fault": {"kind": "drop"}}"#, headers: jsonType))
            #expect(await connection.readResponse().status == 201)
            #expect(server.faults.ruleUsage.map(\.applied) == [1, 0])
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 500)
            try await connection.send(rawRequest("GET", "/api/v1/announcements/1"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func badRulesAndUnknownPresetsAreExplained() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/rules", body: #"{"fault": {"kind": "explode"}}"#, headers: jsonType))
            let bad = await connection.readResponse()
            #expect(bad.status == 400)
            #expect(try json(bad)["error"]?["pointer"] == "/fault/kind")
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/presets/chaos"))
            #expect(await connection.readResponse().status == 404)
            try await connection.send(rawRequest("POST", "/__spotcheck/faults/presets/slow"))
            #expect(await connection.readResponse().status == 200)
            #expect(server.faults.rules == FaultPreset.slow.rules())
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/catalogue"))
            let catalogue = try json(await connection.readResponse())
            #expect(catalogue["kinds"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == Fault.kinds)
        }
    }

    @Test func theTokenMayComeAsAQueryParameterAndThePageNeedsNone() async throws {
        try await withServer(configuration: ServerConfiguration(adminToken: "s3cret", idleTimeout: patientIdleTimeout, quiet: true)) { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active"))
            #expect(await connection.readResponse().status == 401)
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active?token=wrong"))
            #expect(await connection.readResponse().status == 401)
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active?token=s3cret"))
            #expect(await connection.readResponse().status == 200)
            try await connection.send(rawRequest("GET", "/__spotcheck/"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func stateShowsTheNewestUpToTheLimitAndCountsAll() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            var ids: [String] = []
            for _ in 0..<3 { ids.append(try await http.create(BundledContractsTestSupport.createBody([("microchipNumber", nil)])).id) }
            let state = try await http.get("/__spotcheck/state?limit=2", headers: ["X-SpotCheck-Admin-Token": "admin-secret"])
            #expect(state.json?["count"] == 3)
            #expect(state.json?["records"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [ids[2], ids[1]])
        }
    }

    @Test func stateRoutesShowDeleteAndLoadAnnouncements() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            let auth = "Basic " + Data("x:\(password)".utf8).base64EncodedString()
            #expect(try await http.upload(id: id, authorization: auth, bytes: BundledContractsTestSupport.png).status == 201)
            let admin = ["X-SpotCheck-Admin-Token": "admin-secret"]
            let state = try await http.get("/__spotcheck/state", headers: admin)
            let first = state.json?["records"]?.arrayValue?.first
            #expect(first?["id"]?.stringValue == id)
            #expect(first?["secret"]?["value"]?.stringValue == password)
            let photoURL = try #require(first?["photo"]?["url"]?.stringValue)
            #expect(Array(try await http.get(photoURL, headers: admin).body) == BundledContractsTestSupport.png)

            let fixtures = try Data(contentsOf: RecordFixture.bundledFile)
            let json = admin.merging(["Content-Type": "application/json"]) { $1 }
            let loaded = try await http.send("POST", "/__spotcheck/state/fixtures", headers: json, body: fixtures)
            let count = try RecordFixture.load(from: RecordFixture.bundledFile).count
            #expect(loaded.json?["loaded"] == .number(Double(count)))
            #expect(await mock.recordCount() == count + 1)
            let broken = try await http.send("POST", "/__spotcheck/state/fixtures", headers: json, body: Data(#"{"announcements": [{}]}"#.utf8))
            #expect(broken.status == 400)

            #expect(try await http.send("DELETE", "/__spotcheck/state/announcements/\(id)", headers: admin).status == 204)
            #expect(try await http.get("/api/v1/announcements/\(id)").status == 404)
            #expect(try await http.send("DELETE", "/__spotcheck/state/announcements/\(id)", headers: admin).status == 404)
        }
    }

    @Test func aServerWithoutStateSaysSo() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/__spotcheck/state"))
            #expect(await connection.readResponse().status == 404)
        }
    }

    /// The offline switch: one route to go offline, one to come back, other rules untouched.
    @Test func offlineAndBackKeepOtherRules() async throws {
        let other = FaultRule(name: "slow", selector: FaultSelector(contract: "getAnnouncement"), fault: .delay(ms: 1))
        try await withServer(rules: [other], configuration: ServerConfiguration(adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true)) { server, address in
            let admin = try await RawConnection.connect(port: try #require(address.adminPort))
            defer { admin.close() }
            try await admin.send(rawRequest("POST", "/__spotcheck/faults/offline"))
            #expect(await admin.readResponse().status == 200)
            try await admin.send(rawRequest("POST", "/__spotcheck/faults/offline"))
            #expect(await admin.readResponse().status == 200)
            #expect(server.faults.rules.count == 2)
            #expect(server.isRefusing)
            try await admin.send(rawRequest("DELETE", "/__spotcheck/faults/offline"))
            let back = await admin.readResponse()
            #expect(back.status == 200)
            #expect(server.faults.rules == [other])
            #expect(String(decoding: back.body ?? [], as: UTF8.self).contains(#""offline":false"#))
        }
    }
}
