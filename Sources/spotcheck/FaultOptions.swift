import ArgumentParser

/// Fault-injection flags shared by `serve` and `proxy` (being built; see issue 4).
struct FaultOptions: ParsableArguments {}
