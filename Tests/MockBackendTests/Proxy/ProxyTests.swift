import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct ProxyTests {
    /// Starts an echo upstream and a proxy in front of it, runs `body`, and shuts both down even on failure.
    private func withProxy<T>(rules: [FaultRule] = [], upstream responder: EchoResponder = EchoResponder(),
                              targetPath: String = "",
                              _ body: (RunningFaultProxy, MockServer) async throws -> T) async throws -> T {
        try await withServer(responder: responder) { upstream, address in
            let target = try #require(URL(string: address.baseURL.absoluteString + targetPath))
            let proxy = try await FaultProxy.start(target: target, faults: rules, contractID: TestContracts.id, idleTimeout: patientIdleTimeout)
            do {
                let result = try await body(proxy, upstream)
                try await proxy.shutdown()
                return result
            } catch {
                try? await proxy.shutdown()
                throw error
            }
        }
    }

    private func json(_ read: RawRead) throws -> JSONValue {
        try JSONValue(parsing: Data(read.body ?? []))
    }

    @Test func forwardsMethodPathQueryHeadersAndBody() async throws {
        try await withProxy { proxy, upstream in
            let connection = try await RawConnection.connect(port: proxy.port)
            defer { connection.close() }
            let auth = "Basic " + Data("an-id:654321".utf8).base64EncodedString()
            try await connection.send(rawRequest("POST", "/api/v1/announcements/an-id/photos?x=1&y=%20z", body: "hello",
                                                 headers: ["Authorization": auth, "X-Custom": "kept"]))
            let read = await connection.readResponse()
            #expect(read.status == 201)
            #expect(read.text.contains("x-echo: yes"))
            let echo = try json(read)
            #expect(echo["method"] == "POST")
            #expect(echo["uri"] == "/api/v1/announcements/an-id/photos?x=1&y=%20z")
            #expect(echo["authorization"] == .string(auth))
            #expect(echo["custom"] == "kept")
            #expect(echo["bodyBytes"] == 5)
            let entry = try #require(proxy.journal.entries().first)
            #expect(entry.contract == "uploadPhoto")
            #expect(entry.authUser == "an-id")
            #expect(entry.status == 201)
            #expect(upstream.journal.entries().count == 1)
            // Keep-alive on the client side survives the proxy's one-shot upstream connections.
            try await connection.send(rawRequest("GET", "/api/v1/announcements/an-id"))
            #expect(await connection.readResponse().status == 200)
        }
    }

    @Test func aTwentyMebibytePhotoPassesIntact() async throws {
        try await withProxy { proxy, _ in
            var bytes = [UInt8](repeating: 0, count: 20 * 1024 * 1024)
            var generator = SeededGenerator(seed: 7)
            for i in stride(from: 0, to: bytes.count, by: 8) {
                withUnsafeBytes(of: generator.next()) { raw in
                    for j in 0..<min(8, bytes.count - i) { bytes[i + j] = raw[j] }
                }
            }
            let connection = try await RawConnection.connect(port: proxy.port)
            defer { connection.close() }
            let head = "POST /api/v1/announcements/a/photos HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: \(bytes.count)\r\n\r\n"
            try await connection.send(Array(head.utf8) + bytes)
            let read = await connection.readResponse(window: .seconds(60))
            #expect(read.status == 201)
            let echo = try json(read)
            #expect(echo["bodyBytes"] == .number(Double(bytes.count)))
            #expect(echo["checksum"] == .string(bytes.withUnsafeBytes { Checksum.fnv1a($0) }))
        }
    }

    @Test func faultsApplyOnTheProxyAndTheTargetNeverSeesFaultedCalls() async throws {
        let rules = [
            FaultRule(name: "first upload fails", selector: FaultSelector(contract: "uploadPhoto"), calls: [1...1], fault: .status(503)),
            FaultRule(name: "second upload resets", selector: FaultSelector(contract: "uploadPhoto"), calls: [2...2], fault: .reset),
        ]
        try await withProxy(rules: rules) { proxy, upstream in
            for expected in [503, nil, 201] as [Int?] {
                let connection = try await RawConnection.connect(port: proxy.port)
                defer { connection.close() }
                try await connection.send(rawRequest("POST", "/api/v1/announcements/a/photos", body: "x"))
                let read = await connection.read(window: .seconds(60), limit: 1)
                if let expected {
                    #expect(read.status == expected)
                } else {
                    #expect(read.ending == .reset)
                }
            }
            let entries = proxy.journal.entries()
            #expect(entries.map(\.rule) == ["first upload fails", "second upload resets", nil])
            #expect(entries.map(\.fault) == ["status", "reset", nil])
            #expect(entries.map(\.status) == [503, nil, 201])
            #expect(entries.allSatisfy { $0.contract == "uploadPhoto" })
            #expect(upstream.journal.entries().count == 1)
        }
    }

    @Test func contractIdsComeFromAContractSet() async throws {
        let contracts = try ContractSet.load(from: ContractSet.bundledDirectory)
        try await withServer { _, address in
            let proxy = try await FaultProxy.start(target: address.baseURL, contracts: contracts, idleTimeout: patientIdleTimeout)
            do {
                let connection = try await RawConnection.connect(port: proxy.port)
                defer { connection.close() }
                try await connection.send(rawRequest("POST", "/api/v1/announcements", body: "{}"))
                _ = await connection.readResponse()
                #expect(proxy.journal.entries().first?.contract == "createAnnouncement")
                try await proxy.shutdown()
            } catch {
                try? await proxy.shutdown()
                throw error
            }
        }
    }

    @Test func theTwoStepSubmissionThroughTheProxyToThePetSpotBackend() async throws {
        let rules = [FaultRule(name: "first upload 503", selector: FaultSelector(contract: "uploadPhoto"), calls: [1...1], fault: .status(503))]
        try await withPetSpotMock { mock in
            let proxy = try await FaultProxy.start(target: mock.baseURL, faults: rules, contracts: try BundledContractsTestSupport.loadedContracts(), idleTimeout: patientIdleTimeout)
            do {
                let connection = try await RawConnection.connect(port: proxy.port)
                defer { connection.close() }
                let create = BundledContractsTestSupport.createBody().serialized()
                try await connection.send(rawRequest("POST", "/api/v1/announcements", body: create, headers: ["Content-Type": "application/json"]))
                let created = try json(await connection.readResponse())
                let id = try #require(created["id"]?.stringValue)
                let password = try #require(created["managementPassword"]?.stringValue)

                let upload = BundledContractsTestSupport.multipart(bytes: BundledContractsTestSupport.png)
                let body = Array(upload.readableBytesView)
                let head = "POST /api/v1/announcements/\(id)/photos HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: multipart/form-data; boundary=XyZBoundary42\r\n"
                    + "Authorization: \(BundledContractsTestSupport.basic(id, password))\r\nContent-Length: \(body.count)\r\n\r\n"
                try await connection.send(Array(head.utf8) + body)
                #expect(await connection.readResponse().status == 503)
                try await connection.send(Array(head.utf8) + body)
                // A 201 proves the target saw the Authorization header and the multipart body unchanged.
                #expect(await connection.readResponse().status == 201)
                try await connection.send(rawRequest("GET", "/api/v1/announcements/\(id)"))
                #expect(try json(await connection.readResponse())["photoUrl"] == .string("/images/\(id).png"))

                let entries = proxy.journal.entries()
                #expect(entries.map(\.contract) == ["createAnnouncement", "uploadPhoto", "uploadPhoto", "getAnnouncement"])
                #expect(entries.map(\.fault) == [nil, "status", nil, nil])
                #expect(entries.map(\.status) == [201, 503, 201, 200])
                #expect(entries[1].authUser == id && entries[2].authUser == id)
                #expect(mock.journal.entries().filter { $0.contract == "uploadPhoto" }.count == 1)
                try await proxy.shutdown()
            } catch {
                try? await proxy.shutdown()
                throw error
            }
        }
    }

    @Test func aTargetPathPrefixesEveryRequest() async throws {
        try await withProxy(targetPath: "/base/") { proxy, _ in
            let connection = try await RawConnection.connect(port: proxy.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/api/health?q=1"))
            #expect(try json(await connection.readResponse())["uri"] == "/base/api/health?q=1")
        }
    }

    @Test func anUnreachableTargetAnswers502() async throws {
        // A socket bound but never listening: connects are refused, and no other test's server can be handed the port
        // meanwhile (a started-and-stopped server's port could be, and then the proxy reached that server instead).
        let holder = try #require(PortPlaceholder.hold(host: "127.0.0.1", port: 0))
        defer { PortPlaceholder.release(holder) }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        try #require(named == 0)
        let port = Int(UInt16(bigEndian: bound.sin_port))
        let proxy = try await FaultProxy.start(target: try #require(URL(string: "http://127.0.0.1:\(port)")), idleTimeout: patientIdleTimeout)
        do {
            let connection = try await RawConnection.connect(port: proxy.port)
            defer { connection.close() }
            try await connection.send(rawRequest("GET", "/x"))
            let read = await connection.readResponse()
            #expect(read.status == 502)
            #expect(read.text.contains("PROXY_ERROR"))
            try await proxy.shutdown()
        } catch {
            try? await proxy.shutdown()
            throw error
        }
    }

    @Test func onlyPlainHTTPTargetsAreAccepted() throws {
        #expect(throws: ProxyError.self) { _ = try FaultProxy(target: try #require(URL(string: "https://example.com"))) }
        #expect(throws: ProxyError.self) { _ = try FaultProxy(target: try #require(URL(string: "file:///tmp"))) }
        #expect(throws: Never.self) { _ = try FaultProxy(target: try #require(URL(string: "http://localhost:3000/api"))) }
    }
}
