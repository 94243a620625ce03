import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// What issue 29 added to the admin API's trust rules: reads a page on another site asks for are refused, repeated
/// `Origin` and `Sec-Fetch-*` headers are refused like a repeated `Host`, and every admin answer forbids framing.
@Suite struct AdminReadTrustTests {
    private func request(_ method: String, _ path: String, _ headers: [(String, String)], body: String = "") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// The values of a header in a raw answer's header block, names compared without case.
    private func header(_ read: RawRead, _ name: String) -> [String] {
        let head = read.text.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == name.lowercased() else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
    }

    private func message(_ read: RawRead) -> String {
        (try? JSONValue(parsing: Data(read.body ?? [])))?["error"]?["message"]?.stringValue ?? ""
    }

    @Test func aCrossSiteReadIsRefusedButOpeningTheDashboardFromALinkWorks() async throws {
        try await withServer(admin: ResetRecorder()) { _, address in
            let port = address.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            let host = ("Host", "127.0.0.1:\(port)")
            // What <img src>, <script src> and a no-cors fetch on another site send.
            for (path, destination) in [("/__spotcheck/journal", "image"), ("/__spotcheck/state", "script"), ("/__spotcheck/health", "empty"),
                                        ("/__spotcheck/journal/1", "image"), ("/__spotcheck/events", "empty")] {
                let marks = [host, ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors"), ("Sec-Fetch-Dest", destination)]
                try await connection.send(request("GET", path, marks))
                let answer = await connection.readResponse()
                #expect(answer.status == 403, "GET \(path)")
                #expect(message(answer).contains("cross-site"), "\(path)")
                // HEAD has no body to wait for: its own connection, closed after the answer.
                let head = try await RawConnection.connect(port: port)
                defer { head.close() }
                try await head.send(request("HEAD", path, marks + [("Connection", "close")]))
                #expect(await head.read(window: .seconds(60)).status == 403, "HEAD \(path)")
            }
            // Another site's page framing or opening an admin answer in a frame is refused too.
            try await connection.send(request("GET", "/__spotcheck/", [host, ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate"),
                                                                      ("Sec-Fetch-Dest", "iframe")]))
            #expect(await connection.readResponse().status == 403)
            // A link to the dashboard page on another site: a top-level navigation to a page that holds no data.
            try await connection.send(request("GET", "/__spotcheck/", [host, ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate"),
                                                                      ("Sec-Fetch-Dest", "document")]))
            #expect(await connection.readResponse().status == 200)
            // The dashboard's own reads, same-site ones (another port of this machine), typed addresses and curl pass.
            for site in ["same-origin", "same-site", "none"] {
                try await connection.send(request("GET", "/__spotcheck/journal", [host, ("Sec-Fetch-Site", site)]))
                #expect(await connection.readResponse().status == 200, "\(site)")
            }
            try await connection.send(request("GET", "/__spotcheck/journal", [host]))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func aRepeatedOriginOrSecFetchHeaderIsRefusedLikeARepeatedHost() async throws {
        try await withServer(admin: ResetRecorder()) { server, address in
            let port = address.port
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            let host = ("Host", "127.0.0.1:\(port)")
            let own = "http://127.0.0.1:\(port)"
            let json = ("Content-Type", "application/json")
            let rule = #"{"path": "/x", "fault": {"kind": "drop"}}"#
            let repeated: [[(String, String)]] = [
                [("Origin", own), ("Origin", "http://evil.example")],
                [("Origin", "http://evil.example"), ("Origin", own)],
                [("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "cross-site")],
                [("Sec-Fetch-Site", "same-origin"), ("sec-fetch-site", "same-origin")],
                [("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Mode", "navigate")],
            ]
            for headers in repeated {
                try await connection.send(request("POST", "/__spotcheck/faults/rules", [host, json] + headers, body: rule))
                let answer = await connection.readResponse()
                #expect(answer.status == 400, "\(headers)")
                #expect(message(answer).contains("more than once"), "\(headers)")
                try await connection.send(request("GET", "/__spotcheck/state", [host] + headers))
                #expect(await connection.readResponse().status == 400, "GET \(headers)")
            }
            #expect(server.faults.rules.isEmpty)
            // Once each, the same write passes.
            try await connection.send(request("POST", "/__spotcheck/faults/rules", [host, json, ("Origin", own), ("Sec-Fetch-Site", "same-origin")], body: rule))
            #expect(await connection.readResponse().status == 201)
        }
    }

    @Test func everyAdminAnswerForbidsFramingSniffingAndReferrers() async throws {
        try await withServer(configuration: ServerConfiguration(adminPort: 0, idleTimeout: patientIdleTimeout, quiet: true), admin: ResetRecorder()) { _, address in
            let admin = try #require(address.adminPort)
            let cases: [(port: Int, text: String, status: Int)] = [
                (address.port, request("GET", "/__spotcheck/", [("Host", "127.0.0.1")]), 200),
                (address.port, request("GET", "/__spotcheck/dashboard/app.js", [("Host", "127.0.0.1")]), 200),
                (address.port, request("GET", "/__spotcheck/health", [("Host", "127.0.0.1")]), 200),
                (address.port, request("GET", "/__spotcheck/nothing", [("Host", "127.0.0.1")]), 404),
                (address.port, request("GET", "/__spotcheck/health", [("Host", "evil.example")]), 421),
                (address.port, request("POST", "/__spotcheck/reset", [("Host", "127.0.0.1"), ("Origin", "http://evil.example")]), 403),
                (admin, request("GET", "/__spotcheck/", [("Host", "127.0.0.1")]), 200),
                (admin, request("GET", "/api/v1/announcements", [("Host", "127.0.0.1")]), 404),
                (admin, "PUT /__spotcheck/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(AdminAPI.bodyLimit + 1)\r\n\r\n", 413),
            ]
            for (port, text, status) in cases {
                let connection = try await RawConnection.connect(port: port)
                defer { connection.close() }
                try await connection.send(text)
                let answer = await connection.readResponse()
                let line = text.components(separatedBy: "\r\n")[0]
                #expect(answer.status == status, "\(line)")
                #expect(header(answer, "X-Frame-Options") == ["DENY"], "\(line)")
                #expect(header(answer, "X-Content-Type-Options") == ["nosniff"], "\(line)")
                #expect(header(answer, "Referrer-Policy") == ["no-referrer"], "\(line)")
                let policy = header(answer, "Content-Security-Policy")
                #expect(policy.count == 1 && policy[0].contains("frame-ancestors 'none'"), "\(line)")
                #expect(policy.first?.contains("default-src 'none'") == true && policy.first?.contains("unsafe-inline") == false, "\(line)")
            }
            // The event stream's head too.
            let stream = try await RawConnection.connect(port: admin)
            defer { stream.close() }
            try await stream.send("GET /__spotcheck/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var head = ""
            for _ in 0..<12 where !head.contains("\r\n\r\n") { head += await stream.read(window: .seconds(5)).text }
            #expect(head.contains("X-Frame-Options: DENY"))
            #expect(head.contains("frame-ancestors 'none'"))
        }
    }

    @Test func theDashboardNeedsNoInlineScriptOrStyle() throws {
        // The policy allows scripts and styles from files only; an inline one would be blocked in the browser.
        for name in DashboardAssets.files.keys {
            let text = String(decoding: try #require(DashboardAssets.bytes(of: name)), as: UTF8.self)
            #expect(!text.contains("<style"), "\(name)")
            #expect(!text.contains(" style="), "\(name)")
            #expect(!text.contains("javascript:"), "\(name)")
            #expect(text.range(of: #"<[^>]* on[a-z]+="#, options: .regularExpression) == nil, "\(name)")
        }
        let page = String(decoding: try #require(DashboardAssets.bytes(of: "index.html")), as: UTF8.self)
        let scripts = page.components(separatedBy: "<script").dropFirst()
        #expect(!scripts.isEmpty && scripts.allSatisfy { $0.hasPrefix(" src=") })
    }
}
