import ContractKit
import Foundation
import NIOCore
import Testing
@testable import ContractModel
@testable import MockBackend

/// The admin API's trust checks over real sockets: what a web page in the user's browser sends is refused and
/// changes nothing, a foreign Host is refused, and loopback is decided from resolved addresses.
@Suite struct AdminTrustTests {
    /// A raw request with exactly these headers (no Host added), and a Content-Length body.
    private func request(_ method: String, _ path: String, headers: [(String, String)], body: String = "") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n"
        return text + body
    }

    /// What a page on evil.example sends with `fetch(url, {method, mode: "no-cors", body})`: a text/plain body, cross-site marks.
    private func noCors(_ method: String, _ path: String, port: Int, body: String = "") -> String {
        request(method, path, headers: [("Host", "127.0.0.1:\(port)"), ("Origin", "http://evil.example"),
                                        ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors"),
                                        ("Content-Type", "text/plain;charset=UTF-8")], body: body)
    }

    private func message(_ read: RawRead) -> String {
        (try? JSONValue(parsing: Data(read.body ?? [])))?["error"]?["message"]?.stringValue ?? ""
    }

    @Test func crossSiteWritesAreRefusedAndChangeNothing() async throws {
        try await withPetSpotMock(fixtures: true, adminToken: nil) { mock in
            let before = await mock.recordCount()
            #expect(before > 0)
            let id = try #require(mock.backend.store.snapshot(limit: 1).newest.first?.id)
            let port = mock.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            let rule = #"{"fault": {"kind": "refuse"}}"#
            let fixtures = #"{"announcements": []}"#
            let attempts: [(String, String, String)] = [
                ("POST", "/__spotcheck/reset", ""), ("POST", "/__spotcheck/faults/rules", rule), ("PUT", "/__spotcheck/faults", rule),
                ("POST", "/__spotcheck/faults/offline", ""), ("POST", "/__spotcheck/faults/presets/chaos", ""),
                ("POST", "/__spotcheck/state/fixtures", fixtures), ("DELETE", "/__spotcheck/state/announcements/\(id)", ""),
                ("DELETE", "/__spotcheck/journal", ""), ("POST", "/__spotcheck/shutdown", ""),
            ]
            for (method, path, body) in attempts {
                try await connection.send(noCors(method, path, port: port, body: body))
                let answer = await connection.readResponse()
                #expect(answer.status == 403, "\(method) \(path)")
                #expect(message(answer).contains("http://evil.example"), "\(method) \(path)")
                #expect(!answer.text.lowercased().contains("access-control-allow"))
            }
            #expect(await mock.recordCount() == before)
            #expect(mock.faults.rules.isEmpty)
            #expect(!mock.server.isRefusing)
            // The store still answers, so shutdown was not asked for either.
            try await connection.send(rawRequest("GET", "/api/v1/announcements/\(id)"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func eachBrowserMarkIsRefusedOnItsOwn() async throws {
        try await withServer(admin: ResetRecorder()) { server, address in
            let port = address.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            let host = ("Host", "127.0.0.1:\(port)")
            let json = ("Content-Type", "application/json")
            let rule = #"{"fault": {"kind": "drop"}}"#
            // Sec-Fetch-Site alone (an Origin-less request a browser still marks), same-site included: localhost:3000 is same-site.
            for site in ["cross-site", "same-site"] {
                try await connection.send(request("POST", "/__spotcheck/faults/rules", headers: [host, json, ("Sec-Fetch-Site", site)], body: rule))
                let answer = await connection.readResponse()
                #expect(answer.status == 403)
                #expect(message(answer).contains(site))
            }
            // An Origin on another port of the same machine, or `null`, is another origin.
            for origin in ["http://127.0.0.1:1", "http://localhost:3000", "null"] {
                try await connection.send(request("POST", "/__spotcheck/faults/rules", headers: [host, json, ("Origin", origin)], body: rule))
                #expect(await connection.readResponse().status == 403, "\(origin)")
            }
            // A form post or a text body without browser marks (curl -d) is refused for its type.
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                try await connection.send(request("POST", "/__spotcheck/faults/rules", headers: [host, ("Content-Type", type)], body: rule))
                let answer = await connection.readResponse()
                #expect(answer.status == 415)
                #expect(message(answer).contains("application/json"))
            }
            try await connection.send(request("POST", "/__spotcheck/faults/rules", headers: [host], body: rule))
            #expect(await connection.readResponse().status == 415)
            // A browser's bodiless write must be JSON too, so it cannot skip the preflight.
            try await connection.send(request("POST", "/__spotcheck/reset", headers: [host, ("Origin", "http://127.0.0.1:\(port)")]))
            #expect(await connection.readResponse().status == 415)
            #expect(server.faults.rules.isEmpty)

            // The preflight a JSON write from another origin needs gets no grant.
            try await connection.send(request("OPTIONS", "/__spotcheck/faults/rules", headers: [
                host, ("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type")]))
            let preflight = await connection.readResponse()
            #expect(preflight.status == 403)
            #expect(!preflight.text.lowercased().contains("access-control-allow"))
        }
    }

    @Test func theDashboardAndCurlStillChangeState() async throws {
        let hooks = ResetRecorder()
        try await withServer(admin: hooks) { server, address in
            let port = address.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            let host = ("Host", "127.0.0.1:\(port)")
            // The dashboard's fetch: same origin, JSON.
            try await connection.send(request("POST", "/__spotcheck/faults/rules", headers: [
                host, ("Origin", "http://127.0.0.1:\(port)"), ("Sec-Fetch-Site", "same-origin"), ("Content-Type", "application/json; charset=utf-8")],
                body: #"{"path": "/x", "fault": {"kind": "drop"}}"#))
            #expect(await connection.readResponse().status == 201)
            #expect(server.faults.rules.count == 1)
            try await connection.send(request("POST", "/__spotcheck/reset", headers: [
                ("Host", "localhost:\(port)"), ("Origin", "http://localhost:\(port)"), ("Sec-Fetch-Site", "same-origin"), ("Content-Type", "application/json")]))
            #expect(await connection.readResponse().status == 204)
            // `Sec-Fetch-Site: none` (typed by the user) passes, still as JSON; curl's bodiless write needs no type.
            try await connection.send(request("DELETE", "/__spotcheck/faults", headers: [host, ("Sec-Fetch-Site", "none"), ("Content-Type", "application/json")]))
            #expect(await connection.readResponse().status == 204)
            try await connection.send(request("POST", "/__spotcheck/reset", headers: [host]))
            #expect(await connection.readResponse().status == 204)
            #expect(hooks.count == 2)
            #expect(server.faults.rules.isEmpty)
        }
    }

    @Test func aForeignHostIsRefusedOnTheAdminAPIAndDashboardOnly() async throws {
        try await withServer(admin: ResetRecorder()) { _, address in
            let port = address.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            for path in ["/__spotcheck/health", "/__spotcheck/", "/__spotcheck/dashboard/app.js", "/__spotcheck/events", "/__spotcheck/journal"] {
                try await connection.send(request("GET", path, headers: [("Host", "rebound.evil.example:\(port)")]))
                let answer = await connection.readResponse()
                #expect(answer.status == 421, "\(path)")
                #expect(message(answer).contains("--allow-host rebound.evil.example"), "\(path)")
            }
            // Two Host headers are refused even when one names this server.
            try await connection.send(request("GET", "/__spotcheck/health", headers: [("Host", "127.0.0.1:\(port)"), ("Host", "evil.example")]))
            #expect(await connection.readResponse().status == 421)
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST.:\(port)", "app.localhost:\(port)", "[::1]:\(port)", "127.0.0.2"] {
                try await connection.send(request("GET", "/__spotcheck/health", headers: [("Host", host)]))
                #expect(await connection.readResponse().status == 200, "\(host)")
            }
            // An address literal that is not this machine's (bound to loopback: only loopback is) is foreign too.
            for host in ["192.168.1.20:\(port)", "203.0.113.9"] {
                try await connection.send(request("GET", "/__spotcheck/health", headers: [("Host", host)]))
                #expect(await connection.readResponse().status == 421, "\(host)")
            }
            // The app's API stays reachable by any name, e.g. a phone on the LAN using the machine's name.
            try await connection.send(request("GET", "/api/v1/announcements", headers: [("Host", "devbox.lan:\(port)")]))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func allowedHostsAndTheBoundNameAreAnswered() async throws {
        var configuration = ServerConfiguration(host: "localhost", adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true)
        configuration.allowedHosts = ["devbox.lan", "*.dev.test"]
        try await withServer(configuration: configuration) { _, address in
            let admin = try #require(address.adminPort)
            let connection = try await RawConnection.connect(port: admin)
            defer { connection.close() }
            for (host, status) in [("devbox.lan:\(admin)", 200), ("a.dev.test", 200), ("dev.test", 421), ("devbox.lan.evil", 421)] {
                try await connection.send(request("GET", "/__spotcheck/health", headers: [("Host", host)]))
                #expect(await connection.readResponse().status == status, "\(host)")
            }
            // The admin port's page may write to the main port's admin routes: both ports are this server.
            try await connection.send(request("DELETE", "/__spotcheck/faults", headers: [
                ("Host", "localhost:\(admin)"), ("Origin", "http://localhost:\(address.port)"), ("Content-Type", "application/json")]))
            #expect(await connection.readResponse().status == 204)
            try await connection.send(request("GET", "/__spotcheck/health", headers: [("Host", "localhost:\(admin)")]))
            let health = try JSONValue(parsing: Data(await connection.readResponse().body ?? []))
            #expect(health["mainPort"] == .number(Double(address.port)))
        }
    }

    @Test func addressLiteralsAreAnsweredOnlyWhenTheyNameThisMachine() throws {
        let everywhere = HostAllowList(boundHost: "0.0.0.0", interfaceAddresses: ["192.168.1.20", "fe80::1"])
        #expect(everywhere.allows(hostHeader: "192.168.1.20:3001"))
        #expect(everywhere.allows(hostHeader: "[FE80::0001]:3001"))
        #expect(!everywhere.allows(hostHeader: "192.168.1.21:3001"))
        #expect(everywhere.allows(hostHeader: "127.0.0.1:3001"))
        let bound = HostAllowList(boundHost: "192.168.1.20")
        #expect(bound.allows(hostHeader: "192.168.1.20"))
        #expect(!bound.allows(hostHeader: "10.0.0.1"))
        #expect(bound.interfaceAddresses.isEmpty)
    }

    @Test func loopbackIsDecidedFromResolvedAddresses() throws {
        #expect(try LoopbackResolver.isLoopback(host: "127.0.0.1"))
        #expect(try LoopbackResolver.isLoopback(host: "127.8.9.10"))
        #expect(try LoopbackResolver.isLoopback(host: "[::1]"))
        #expect(try LoopbackResolver.isLoopback(host: "::1"))
        #expect(try LoopbackResolver.isLoopback(host: "localhost"))
        #expect(try !LoopbackResolver.isLoopback(host: "0.0.0.0"))
        #expect(try !LoopbackResolver.isLoopback(host: "::"))
        #expect(try !LoopbackResolver.isLoopback(host: "192.168.1.20"))
        #expect(throws: HostResolutionError.self) { try LoopbackResolver.isLoopback(host: "127.nonexistent.invalid") }
        do {
            _ = try ServerConfiguration(host: "127.nonexistent.invalid").resolveLoopback()
            Issue.record("an unresolvable host was judged")
        } catch {
            #expect(error.description.contains("127.nonexistent.invalid does not resolve"))
        }
        // Unresolvable is never loopback: the admin API then needs a token.
        #expect(!ServerConfiguration(host: "127.nonexistent.invalid").isLoopback)
        #expect(ServerConfiguration(host: "localhost").isLoopback)
    }

    @Test func hostAuthoritiesParseLikeBrowsersSendThem() {
        #expect(HostAuthority("LocalHost:3000") == HostAuthority("localhost:3000"))
        #expect(HostAuthority("[::1]:80")?.host == "::1")
        #expect(HostAuthority("[::1]:80")?.port == 80)
        #expect(HostAuthority("example.test.")?.host == "example.test")
        #expect(HostAuthority("::1") == nil)
        #expect(HostAuthority("") == nil)
        #expect(HostAuthority("a:99999") == nil)
        #expect(HostAuthority("a b") == nil)
        #expect(HostAuthority("127.0.0.1")?.isLoopback == true)
        #expect(HostAuthority("127.0.0.1.evil.example")?.isLoopback == false)
        #expect(HostAllowList.isValidPattern("*.dev.test"))
        #expect(!HostAllowList.isValidPattern("dev.test:80"))
        #expect(!HostAllowList.isValidPattern("a*.dev.test"))
    }
}
