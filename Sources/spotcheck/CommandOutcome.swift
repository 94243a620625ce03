import ArgumentParser
import Foundation

/// What a command produced: its standard output text and exit code, so tests can run commands in-process.
struct CommandOutcome: Equatable {
    /// Text for standard output.
    var output: String
    /// 0 success, 1 a check failed, 2 bad usage or bad input files.
    var exitCode: Int32
    /// Text for standard error (warnings that must not mix with a document on standard output).
    var diagnostics: String = ""

    /// Prints the output and ends the command with the exit code.
    func finish() throws {
        if !diagnostics.isEmpty { FileHandle.standardError.write(Data(diagnostics.utf8)) }
        print(output, terminator: output.isEmpty || output.hasSuffix("\n") ? "" : "\n")
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
