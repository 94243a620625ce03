import Foundation

/// Where commands find contracts and scenarios: the folder given, else the working directory's, else this checkout's.
enum InputFolder {
    /// `explicit` if given; else `local` when it exists in the working directory; else `bundled`.
    static func resolve(_ explicit: String?, local: String, bundled: URL) -> URL {
        if let explicit { return URL(fileURLWithPath: explicit) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue {
            return URL(fileURLWithPath: local)
        }
        return bundled
    }
}
