import ArgumentParser

/// What a command produced: its standard output text and exit code, so tests can run commands in-process.
struct CommandOutcome: Equatable {
    /// Text for standard output.
    var output: String
    /// 0 success, 1 a check failed, 2 bad usage or bad input files.
    var exitCode: Int32

    /// Prints the output and ends the command with the exit code.
    func finish() throws {
        print(output, terminator: output.isEmpty || output.hasSuffix("\n") ? "" : "\n")
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
