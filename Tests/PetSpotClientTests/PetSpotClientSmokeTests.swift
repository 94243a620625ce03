import Testing
@testable import PetSpotClient

@Suite struct PetSpotClientSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
