import Foundation
import Testing

@testable import MockCommands
@testable import spotcheck

@Suite struct StartTimingsTests {
    @Test func offPrintsNothing() {
        var timings = StartTimings(enabled: false)
        timings.mark("contractsMs")
        #expect(timings.jsonLine == nil)
    }

    @Test func namesEveryPhaseInOrderAsOneJSONLine() throws {
        var timings = StartTimings(enabled: true)
        timings.mark("contractsMs")
        timings.mark("backendAndListenMs")
        let line = try #require(timings.jsonLine)
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let phases = try #require(object["timings"] as? [String: Double])
        #expect(Set(phases.keys) == ["contractsMs", "backendAndListenMs"])
        #expect(phases.values.allSatisfy { $0 >= 0 })
        let contracts = try #require(line.range(of: "contractsMs")), listen = try #require(line.range(of: "backendAndListenMs"))
        #expect(contracts.lowerBound < listen.lowerBound)
    }

    @Test func serveAcceptsTheFlag() throws {
        #expect(try ServeCommand.parse(["--timings"]).timings)
        #expect(try !ServeCommand.parse([]).timings)
    }
}
