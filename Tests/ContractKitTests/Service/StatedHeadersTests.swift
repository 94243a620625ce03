import Testing

@testable import ContractKit

/// The header values service.json states: a changed or missing one differs, one the server adds does not.
@Suite struct StatedHeadersTests {
    @Test func aChangedOrMissingStatedValueDiffersAndAnAddedHeaderDoesNot() throws {
        let service = try ContractSet.load(from: ContractSet.bundledDirectory).service
        let stated = StatedHeaders(service)
        let faithful = [(name: "x-powered-by", value: "Express"), (name: "access-control-allow-origin", value: "*"), (name: "Server", value: "nginx")]
        #expect(stated.differences(in: faithful, preflight: false).isEmpty)
        let changed = [(name: "X-Powered-By", value: "Express"), (name: "Access-Control-Allow-Origin", value: "https://app.example")]
        #expect(stated.differences(in: changed, preflight: false)
            == [StatedHeaders.Difference(name: "Access-Control-Allow-Origin", expected: "*", got: "https://app.example")])
        // A dropped header changes the header set, not a stated value: reported apart, as information.
        #expect(stated.differences(in: [(name: "X-Powered-By", value: "Express")], preflight: false).isEmpty)
        // Two values of one header are one list.
        let twice = faithful + [(name: "Access-Control-Allow-Origin", value: "*")]
        #expect(stated.differences(in: twice, preflight: false).map(\.got) == ["*, *"])
        #expect(stated.isPreflight(method: "options") && !stated.isPreflight(method: "GET"))
    }

    @Test func theNewerBackendStatesHelmetsHeadersButNotOnPreflights() throws {
        let service = try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")).service
        let stated = StatedHeaders(service)
        #expect(stated.stated(preflight: false).contains { $0.name == "X-Frame-Options" && $0.value == "SAMEORIGIN" })
        #expect(!stated.stated(preflight: true).contains { $0.name == "X-Frame-Options" })
        let changed = service.headers.map { (name: $0.name, value: $0.value + "x") }
        #expect(stated.differences(in: changed, preflight: false).count == service.headers.count)
    }
}
