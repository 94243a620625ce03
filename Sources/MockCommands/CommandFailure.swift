/// A command that could not start (serve, proxy), carrying what to print and the exit code.
struct CommandFailure: Error {
    /// The text and exit code.
    let outcome: CommandOutcome
}
