import Foundation
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// Methods are journaled as they were on the wire: NIO names `M-SEARCH` `MSEARCH`.
@Suite struct MethodWireNameTests {
    @Test func mSearchIsJournaledWithItsDash() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port, sending: "M-SEARCH * HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
            defer { connection.close() }
            _ = await connection.readResponse(window: .seconds(10))
            let methods = server.journal.entries().map(\.method)
            #expect(methods == ["M-SEARCH"])
        }
    }

    @Test func otherMethodsKeepTheirNames() {
        #expect(HTTPMethod.MSEARCH.wireNamed.rawValue == "M-SEARCH")
        #expect(HTTPMethod.GET.wireNamed == .GET)
        #expect(MockRequest(method: .MSEARCH, uri: "*").method.rawValue == "M-SEARCH")
    }
}
