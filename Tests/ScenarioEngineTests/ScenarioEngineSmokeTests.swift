import Testing
@testable import ScenarioEngine

@Suite struct ScenarioEngineSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
