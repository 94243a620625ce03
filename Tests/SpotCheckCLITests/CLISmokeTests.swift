import Testing
@testable import spotcheck

@Suite struct CLISmokeTests {
    @Test func rootCommandNamesItself() {
        #expect(SpotCheck.configuration.commandName == "spotcheck")
    }
}
