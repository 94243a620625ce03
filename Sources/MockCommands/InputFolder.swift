import ContractKit
import Foundation

/// Where commands find contracts and scenarios: the folder given, else the working directory's, else this checkout's.
public enum InputFolder {
    /// `explicit` if given; else `local` when it exists in the working directory; else `bundled`.
    public static func resolve(_ explicit: String?, local: String, bundled: URL) -> URL {
        if let explicit { return URL(fileURLWithPath: explicit) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue {
            return URL(fileURLWithPath: local)
        }
        return bundled
    }

    /// The contracts folder `explicit` (or the working directory's, or this checkout's), loaded; nil after printing every
    /// problem when it does not lint.
    public static func contracts(_ explicit: String?, print: (String) -> Void) -> (set: ContractSet, url: URL)? {
        let url = resolve(explicit, local: "contracts", bundled: ContractSet.bundledDirectory)
        do {
            let set = try ContractSet.load(from: url)
            warn(about: set, command: "spotcheck")
            return (set, url)
        } catch {
            print(LintPrinter.render(error.problems))
            return nil
        }
    }

    /// Prints the folder's skipped entries (see `ContractSet.warnings`) on standard error, one `warning:` line each.
    public static func warn(about set: ContractSet, command: String) {
        for warning in set.warnings {
            FileHandle.standardError.write(Data("\(command): warning: \(warning)\n".utf8))
        }
    }
}
