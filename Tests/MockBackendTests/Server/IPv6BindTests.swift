import Foundation
import Testing

@testable import ContractModel
@testable import MockBackend


/// `--host ::1` and its URL form `[::1]` both bind the IPv6 loopback and answer there.
@Suite struct IPv6BindTests {
    private static var hasIPv6Loopback: Bool {
        (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?.contains("00000000000000000000000000000001") ?? true
    }

    @Test(arguments: ["::1", "[::1]"]) func bindsAndAnswers(host: String) async throws {
        guard Self.hasIPv6Loopback else { return }
        let configuration = ServerConfiguration(host: host, idleTimeout: patientIdleTimeout, quiet: true)
        #expect(configuration.bindHost == "::1")
        #expect(configuration.isLoopback)
        try await withServer(configuration: configuration) { _, address in
            #expect(address.baseURL.absoluteString == "http://[::1]:\(address.port)")
            // NIO's client, which connects to the IPv6 literal; FoundationNetworking on Linux refuses `[::1]` URLs.
            let answer = try await ExactHTTPClient(timeout: .seconds(120)).send(method: "GET", url: address.baseURL.appendingPathComponent("__spotcheck/health"), headers: [:], body: Data())
            #expect(answer.status == 200)
        }
    }
}

/// IPv6 literals lose their brackets for sockets and keep them for URLs and `Host`.
@Suite struct HostLiteralTests {
    @Test func bracketsComeAndGo() {
        #expect(HostLiteral.unbracketed("[::1]") == "::1")
        #expect(HostLiteral.unbracketed("::1") == "::1")
        #expect(HostLiteral.unbracketed("127.0.0.1") == "127.0.0.1")
        #expect(HostLiteral.unbracketed("[]") == "[]")
        #expect(HostLiteral.bracketed("::1") == "[::1]")
        #expect(HostLiteral.bracketed("[::1]") == "[::1]")
        #expect(HostLiteral.bracketed("localhost") == "localhost")
    }
}
