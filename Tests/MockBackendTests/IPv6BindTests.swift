import Foundation
import Testing

@testable import MockBackend

/// `--host ::1` and its URL form `[::1]` both bind the IPv6 loopback and answer there.
@Suite struct IPv6BindTests {
    private static var hasIPv6Loopback: Bool {
        (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?.contains("00000000000000000000000000000001") ?? true
    }

    @Test(arguments: ["::1", "[::1]"]) func bindsAndAnswers(host: String) async throws {
        guard Self.hasIPv6Loopback else { return }
        let configuration = ServerConfiguration(host: host, quiet: true)
        #expect(configuration.bindHost == "::1")
        #expect(configuration.isLoopback)
        try await withServer(configuration: configuration) { _, address in
            #expect(address.baseURL.absoluteString == "http://[::1]:\(address.port)")
            let answer = try await PetSpotHTTP(baseURL: address.baseURL).get("/__spotcheck/health")
            #expect(answer.status == 200)
        }
    }
}

extension PetSpotHTTP {
    /// A client for any base URL, e.g. a server bound to `[::1]`.
    init(baseURL: URL) {
        self.baseURL = baseURL
    }
}
