import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a plain socket (no SO_REUSEADDR, like most servers' first try) can bind 127.0.0.1:`port`.
func canBind(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}

/// While `refuse` keeps the mock offline its port stays taken, so no other server can be handed it and answer instead.
@Suite struct RefusedPortHoldTests {
    @Test func theHeldPortIsLetGoOnShutdown() async throws {
        var port = 0
        try await withServer(rules: [FaultRule(fault: .refuse())]) { server, address in
            port = address.port
            #expect(!canBind(port))
        }
        #expect(canBind(port))
    }

    @Test func onlyNumericHostsAreHeld() {
        #expect(PortPlaceholder.hold(host: "not-an-address", port: 1) == nil)
    }
}
