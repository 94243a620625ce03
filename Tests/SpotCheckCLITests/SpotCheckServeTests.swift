import ArgumentParser
import Testing

@testable import MockCommands
@testable import spotcheck_serve

/// The lean `spotcheck-serve` binary: serve by default, proxy on request, the same exit codes as `spotcheck`.
@Suite struct SpotCheckServeTests {
    @Test func withoutASubcommandItServes() throws {
        let command = try SpotCheckServe.parseAsRoot(["--port", "0", "--seed", "4"])
        let serve = try #require(command as? ServeCommand)
        #expect(serve.listen.port == 0)
        #expect(serve.seed == 4)
    }

    @Test func proxyIsItsOtherCommand() throws {
        let command = try SpotCheckServe.parseAsRoot(["proxy", "--target", "http://127.0.0.1:3000"])
        let proxy = try #require(command as? ProxyCommand)
        #expect(proxy.target == "http://127.0.0.1:3000")
    }

    @Test func badUsageExitsWithTwo() {
        do {
            _ = try SpotCheckServe.parseAsRoot(["--port", "not-a-port"])
            Issue.record("a bad port was accepted")
        } catch {
            #expect(CommandLineMain.exitStatus(for: error, root: SpotCheckServe.self) == 2)
        }
        #expect(throws: (any Error).self) { try SpotCheckServe.parseAsRoot(["run"]) }
    }
}
