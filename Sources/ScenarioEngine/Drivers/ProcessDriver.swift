import ContractKit
import ContractModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an external client as a child process speaking JSON lines (docs/client-protocol.md); one process per scenario.
public struct ProcessDriver: ClientDriver {
    /// The command line, run by `/bin/sh -c` so quoting works as in a terminal.
    public let command: String

    /// A driver starting `command` for every scenario.
    public init(command: String) {
        self.command = command
        // A client that dies while we write to it must fail its scenario, not kill the engine with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The text shown to people.
    public var description: String { "external client `\(command)`" }

    /// Starts a fresh client for one scenario.
    public func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw DriverError("cannot start the client `\(command)`: \(FileErrorText.reason(error))")
        }
        let session = ProcessSession(
            process: process, stdin: stdin, stdout: stdout, stderr: stderr, command: command,
            stepTimeout: .milliseconds(context.settings.stepTimeoutMs))
        do throws(DriverError) {
            // The start exchange keeps its own deadline so a client that never gets ready is closed here, not leaked.
            let answer = try await session.exchange(
                WireProtocol.startRequest(id: session.takeID(), context: context), what: "start", timeout: .milliseconds(context.settings.stepTimeoutMs))
            guard answer["outcome"]?.stringValue == "ready" else {
                throw DriverError("the client answered \"start\" without \"outcome\": \"ready\": \(answer.serialized())", stderrTail: session.stderrTail)
            }
        } catch {
            await session.close()
            throw error
        }
        return session
    }
}
