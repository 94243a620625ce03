import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import ContractModel
@testable import MockBackend

/// The proxy forwards the request target exactly as received, and refuses at once (400) only what no request line can carry.
@Suite struct ProxyRequestTargetTests {
    /// The characters outside RFC 3986 that servers take: NIO's client validator once dropped requests holding them, so
    /// the client waited for the whole timeout and got a 504 blaming the target.
    static let characters: [Character] = ["|", "{", "}", "\"", "\\", "^", "`"]

    /// A proxy (streaming, or buffering as while a fault rule is active) in front of a recorder of raw request lines.
    private func withProxy(streams: Bool, _ body: (RequestLineRecorder, ServerAddress) async throws -> Void) async throws {
        try await RequestLineRecorder.with { recorder in
            // A timeout far beyond the read window: a request that never reaches the target shows as no answer at all.
            let proxy = try FaultProxy(target: recorder.baseURL, timeout: .seconds(120), streams: streams)
            try await withServer(responder: proxy) { _, address in try await body(recorder, address) }
        }
    }

    @Test(arguments: [true, false])
    func eachCharacterReachesTheTargetByteForByte(streams: Bool) async throws {
        try await withProxy(streams: streams) { recorder, address in
            for character in Self.characters {
                let target = "/api/v1/announcements/a\(character)b?q=\(character)&r=1"
                let connection = try await RawConnection.connect(port: address.port, sending: rawRequest("GET", target, close: true))
                defer { connection.close() }
                let read = await connection.readResponse(window: .seconds(30))
                #expect(read.status == 200, "\(character): \(read.text)")
                #expect(recorder.received.last == Array("GET \(target) HTTP/1.1".utf8), "\(character)")
            }
            #expect(recorder.received.count == Self.characters.count)
        }
    }

    @Test(arguments: [true, false])
    func percentEscapesAreForwardedAsWritten(streams: Bool) async throws {
        try await withProxy(streams: streams) { recorder, address in
            // Escapes stay as written (never decoded, never re-encoded), a malformed one included.
            let target = "/a%7Cb/%zz/caf%C3%A9;v=1?x=%20|y&z=a/b?c"
            let connection = try await RawConnection.connect(port: address.port, sending: rawRequest("GET", target, close: true))
            defer { connection.close() }
            let read = await connection.readResponse(window: .seconds(30))
            #expect(read.status == 200, "\(read.text)")
            #expect(recorder.received.last == Array("GET \(target) HTTP/1.1".utf8))
        }
    }

    @Test func aControlCharacterOnTheWireIsRefusedAtOnceAndNeverSent() async throws {
        try await withProxy(streams: true) { recorder, address in
            for byte: UInt8 in [0x01, 0x09, 0x7F] {
                let connection = try await RawConnection.connect(port: address.port)
                defer { connection.close() }
                try await connection.send(Array("GET /api/v1/announcements/a".utf8) + [byte] + Array("b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                let read = await connection.readResponse(window: .seconds(30))
                #expect(read.status == 400, "byte \(byte): \(read.text)")
            }
            #expect(recorder.received.isEmpty)
        }
    }

    @Test func aTargetThatCannotBeForwardedGetsA400NamingTheCharacter() async throws {
        let recorder = try await RequestLineRecorder.start()
        defer { Task { try? await recorder.shutdown() } }
        let proxy = try FaultProxy(target: recorder.baseURL, timeout: .seconds(120))
        for (uri, named) in [("/a\u{01}b", "U+0001"), ("/a b", "a space"), ("/a\u{7F}", "DEL"), ("/a\u{FFFD}", "not UTF-8")] {
            let request = MockRequest(method: .GET, uri: uri)
            let immediate = try #require(proxy.immediateResponse(to: request), "\(uri)")
            let response = await proxy.respond(to: request)
            for answer in [immediate, response] {
                #expect(answer.status == .badRequest)
                let message = String(buffer: answer.body)
                #expect(message.contains(named) && message.contains("percent-encode"), "\(message)")
            }
        }
        #expect(proxy.immediateResponse(to: MockRequest(method: .GET, uri: "/a|b")) == nil)
        #expect(recorder.received.isEmpty)
        try await recorder.shutdown()
    }

    @Test func theUpstreamConnectionRefusesAControlCharacterAtOnce() async throws {
        let recorder = try await RequestLineRecorder.start()
        do {
            let client = UpstreamClient(host: "127.0.0.1", port: recorder.baseURL.port ?? 0, group: MultiThreadedEventLoopGroup.singleton,
                                        timeout: .seconds(120), maxResponseBytes: 1024, targetDescription: recorder.baseURL.absoluteString)
            for (uri, name, value) in [("/a\u{01}b", "X-Fine", "ok"), ("/fine", "X-Split", "a\r\nInjected: 1")] {
                var headers = HTTPHeaders()
                headers.add(name: name, value: value)
                await #expect(throws: ProxyError.self) {
                    _ = try await client.send(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers), body: ByteBuffer())
                }
            }
            // The seven characters NIO's validator refused go through.
            let answer = try await client.send(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/a|{}\"\\^`b", headers: ["Host": "x"]),
                                               body: ByteBuffer())
            #expect(answer.status == .ok)
            #expect(recorder.received == [Array("GET /a|{}\"\\^`b HTTP/1.1".utf8)])
            try await recorder.shutdown()
        } catch {
            try? await recorder.shutdown()
            throw error
        }
    }

    @Test func theGuardRefusesAHeaderThatWouldSplitTheHead() {
        var headers = HTTPHeaders()
        headers.add(name: "X-Fine", value: "a\tb \u{E9}")
        #expect(ForwardableRequest.headersAreSendable(headers))
        headers.add(name: "X-Split", value: "a\r\nInjected: 1")
        #expect(!ForwardableRequest.headersAreSendable(headers))
        #expect(!ForwardableRequest.headersAreSendable(["Bad Name": "x"]))
    }
}

extension ProxyRequestTargetTests {
    @Test func theProxysOwn400IsNotHeldAgainstTheServer() throws {
        let validator = ExchangeValidator(contracts: try BundledContractsTestSupport.loadedContracts())
        let path = "/api/v1/announcements/a\u{01}"
        let refusal = try #require(FaultProxy.refusal(forTarget: path))
        let json = [HeaderField(name: "Content-Type", value: "application/json")]
        let own = Exchange(method: "GET", path: path, status: 400, responseHeaders: json, responseBody: Array(refusal.body.readableBytesView))
        #expect(!validator.validate(own).contains { $0.side == .server })
        // The same status from the target, in another envelope, is checked as usual.
        let theirs = Exchange(method: "GET", path: path, status: 400, responseHeaders: json,
                              responseBody: Array(#"{"error":{"code":"SOMETHING_ELSE","message":"no"}}"#.utf8))
        #expect(validator.validate(theirs).contains { $0.side == .server })
    }
}
