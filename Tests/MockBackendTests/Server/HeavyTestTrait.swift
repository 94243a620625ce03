import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// For tests that push a 20 MiB photo through the multipart parser: about 20 s of CPU each in a debug build, enough
    /// to starve the timing-sensitive suites running beside them on 2 cores, so `.ci/run` runs them on their own.
    static var heavy: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SPOTCHECK_HEAVY_TESTS"] == "1",
                 "parses a 20 MiB upload; run with SPOTCHECK_HEAVY_TESTS=1 (.ci/run does, on its own)")
    }
}
