import ContractKit
import ContractModel
import Foundation

/// Where commands find contracts and scenarios: the folder given, else the working directory's, else this checkout's.
/// `--contracts` may also name OpenAPI documents instead of a folder: one file, or several separated by commas.
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

    /// The OpenAPI documents `explicit` names (a file, or files separated by commas); nil when it names a folder.
    public static func documents(_ explicit: String?) -> [URL]? {
        guard let explicit, !explicit.isEmpty else { return nil }
        let single = URL(fileURLWithPath: explicit)
        if ContractSet.isDocument(single) { return [single] }
        let parts = explicit.split(separator: ",").map { URL(fileURLWithPath: String($0)) }
        guard parts.count > 1, parts.allSatisfy(ContractSet.isDocument) else { return nil }
        return parts
    }

    /// The contract set `explicit` names: OpenAPI documents (their base path overridden by `basePath`), or a folder
    /// (the working directory's `contracts/`, else this checkout's, when nil). `--base-path` applies to documents only.
    public static func load(_ explicit: String?, basePath: String? = nil, cache: ContractLintCache? = nil) throws(ContractLoadError) -> ContractSet {
        if let documents = documents(explicit) { return try ContractSet.load(documents: documents, basePath: basePath) }
        let url = resolve(explicit, local: "contracts", bundled: ContractSet.bundledDirectory)
        if basePath != nil {
            throw ContractLoadError(directory: url, problems: [LintProblem(file: LintPrinter.displayPath(url), pointer: "",
                message: "--base-path applies to OpenAPI documents; a contracts folder states its paths in full")])
        }
        return try ContractSet.load(from: url, cache: cache)
    }

    /// The contracts folder (or documents) `explicit` names, loaded; nil after printing every problem when it does not lint.
    public static func contracts(_ explicit: String?, basePath: String? = nil, print: (String) -> Void) -> (set: ContractSet, url: URL)? {
        let url = documents(explicit)?.first ?? resolve(explicit, local: "contracts", bundled: ContractSet.bundledDirectory)
        do {
            let set = try load(explicit, basePath: basePath)
            warn(about: set, command: "spotcheck")
            return (set, url)
        } catch {
            print(LintPrinter.render(error.problems))
            return nil
        }
    }

    /// Prints the set's warnings (a folder's skipped entries, a document's parts served around; see
    /// `ContractSet.warnings`) on standard error, one `warning:` line each.
    public static func warn(about set: ContractSet, command: String) {
        for warning in set.warnings {
            FileHandle.standardError.write(Data("\(command): warning: \(warning)\n".utf8))
        }
    }
}
