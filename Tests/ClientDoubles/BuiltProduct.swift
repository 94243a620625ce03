// Test support shared by test targets; compiled in debug builds only, like the rest of this module.
#if DEBUG
import Foundation

/// An executable product SwiftPM built next to the running test bundle (e.g. `spotcheck-client`, `spotcheck-serve`).
public enum BuiltProduct {
    /// The product's path; throws when it was not built.
    public static func url(_ name: String) throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = bundle.deletingLastPathComponent()
        // On Linux the test binary sits in the products folder; on macOS it is inside the .xctest bundle.
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        throw Missing(name: name, searchedFrom: bundle.path)
    }

    /// A product that is not next to the test bundle.
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public let searchedFrom: String
        public var description: String {
            "\(name) was not found next to \(searchedFrom); build it with `swift build --product \(name)`"
        }
    }
}
#endif
