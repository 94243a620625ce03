import ArgumentParser
import Foundation

/// What a command produced: its standard output text and exit code, so tests can run commands in-process.
public struct CommandOutcome: Equatable, Sendable {
    /// Text for standard output.
    public var output: String
    /// 0 success, 1 a check failed, 2 bad usage or bad input files.
    public var exitCode: Int32
    /// Text for standard error (warnings that must not mix with a document on standard output).
    public var diagnostics: String = ""

    /// An outcome to print.
    public init(output: String, exitCode: Int32, diagnostics: String = "") {
        self.output = output
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    /// Prints the output and ends the command with the exit code.
    public func finish() throws {
        if !diagnostics.isEmpty { FileHandle.standardError.write(Data(diagnostics.utf8)) }
        print(output, terminator: output.isEmpty || output.hasSuffix("\n") ? "" : "\n")
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
