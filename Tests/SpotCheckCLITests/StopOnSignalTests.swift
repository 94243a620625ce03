import ClientDoubles
import Foundation
import Testing

/// `serve` and `proxy` as scripts drive them: TERM sent the moment the banner is read must stop the process.
///
/// The signal handlers used to be installed only after that line was written; a TERM in between was ignored and the
/// server ran on for ever. Real processes, because a signal cannot be sent to one command inside the test process.
@Suite struct StopOnSignalTests {
    /// The built `spotcheck-serve` next to this test bundle.
    static func serveBinary() throws -> URL {
        try BuiltProduct.url("spotcheck-serve")
    }

    /// Starts `arguments`, sends TERM as soon as the banner's first line arrives, and answers how the process ended.
    static func stopAtOnce(_ arguments: [String], banner prefix: String) async throws -> (status: Int32, reason: Process.TerminationReason, seconds: Double) {
        let process = Process()
        process.executableURL = try serveBinary()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let started = Date()
        let banner = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread {
                var seen: [UInt8] = []
                var byte: UInt8 = 0
                while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1 {
                    seen.append(byte)
                    if String(decoding: seen, as: UTF8.self).contains(prefix) { continuation.resume(returning: true); return }
                }
                continuation.resume(returning: false)
            }.start()
        }
        #expect(banner, "no banner from spotcheck-serve \(arguments)")
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<200 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (-1, .uncaughtSignal, Date().timeIntervalSince(started))
        }
        return (process.terminationStatus, process.terminationReason, Date().timeIntervalSince(started))
    }

    @Test(arguments: 1...5)
    func serveStopsOnATermSentRightAfterItsBanner(round: Int) async throws {
        let (status, reason, seconds) = try await Self.stopAtOnce(["--port", "0", "--quiet"], banner: "Listening on ")
        #expect(reason == .exit && status == 0, "round \(round): still running or killed after \(seconds) s")
    }

    @Test func proxyStopsOnATermSentRightAfterItsBanner() async throws {
        let (status, reason, seconds) = try await Self.stopAtOnce(["proxy", "--target", "http://127.0.0.1:9", "--port", "0", "--quiet"], banner: "Proxying ")
        #expect(reason == .exit && status == 0, "still running or killed after \(seconds) s")
    }
}
