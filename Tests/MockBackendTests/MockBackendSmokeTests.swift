import Testing
@testable import MockBackend

@Suite struct MockBackendSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
