import Exploration
import Testing

/// The explorer's defaults that a user meets without a flag.
@Suite struct ExplorerTests {
    /// Sessions mostly wait (idle steps, client timeouts), so a default run overlaps two per core.
    @Test func aDefaultRunOverlapsTwoSessionsPerCore() {
        #expect(Explorer.defaultJobs(cores: 2) == 4)
        #expect(Explorer.defaultJobs(cores: 8) == 16)
    }

    @Test func aMachineReportingNoCoresStillRunsTwo() {
        #expect(Explorer.defaultJobs(cores: 0) == 2)
    }
}
