import ArgumentParser
import Testing
@testable import MockCommands
@testable import spotcheck

@Suite struct ExitStatusTests {
    static func status(_ arguments: [String]) -> Int32? {
        do {
            _ = try SpotCheck.parseAsRoot(arguments)
            return nil
        } catch {
            return SpotCheck.exitStatus(for: error)
        }
    }

    @Test(arguments: [["run", "--no-such-flag"], ["no-such-command"], ["serve", "--port", "70000"], ["run", "--jobs"]])
    func badUsageExitsWith2(arguments: [String]) {
        #expect(Self.status(arguments) == 2)
    }

    @Test func helpExitsWith0() {
        #expect(SpotCheck.exitStatus(for: CleanExit.helpRequest()) == 0)
    }

    @Test func failedChecksKeepTheirCode() {
        #expect(SpotCheck.exitStatus(for: ExitCode(1)) == 1)
    }
}
