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
        if let folder = documentFolder(single) { return folder }
        let parts = explicit.split(separator: ",").map { URL(fileURLWithPath: String($0)) }
        guard parts.count > 1 else { return nil }
        var found: [URL] = []
        for part in parts {
            if ContractSet.isDocument(part) {
                found.append(part)
            } else if let folder = documentFolder(part) {
                found += folder
            } else {
                return nil
            }
        }
        return found
    }

    /// The OpenAPI documents directly in `folder`, in name order: its YAML and JSON files whose root names `openapi` (files
    /// only `$ref`'d, such as shared components, are read through the documents that name them). Nil when it holds none,
    /// so a contract folder stays a contract folder.
    static func documentFolder(_ folder: URL) -> [URL]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let roots = names.sorted().filter { name in
            let lower = name.lowercased()
            let path = folder.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            // A folder named like a document (`x.json/`) is the loader's to report, never read here: FileHandle's
            // `readData` traps on a directory (the suite crashed on LintUnreadableFilesTests).
            guard lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") || lower.hasSuffix(".json"),
                  FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            // The root key is near the top; 4 KiB is read, never a whole large file. The throwing read: an unreadable
            // file is the loader's to report too.
            guard let bytes = try? handle.read(upToCount: 4096) else { return false }
            let head = String(decoding: bytes, as: UTF8.self)
            return head.range(of: #"(?m)^openapi\s*:"#, options: .regularExpression) != nil
                || head.range(of: #"^\s*\{[\s\S]*"openapi"\s*:"#, options: .regularExpression) != nil
        }.map { folder.appendingPathComponent($0) }
        return roots.isEmpty ? nil : roots
    }

    /// The contract set `explicit` names: OpenAPI documents (their base path overridden by `basePath`), or a folder
    /// (the working directory's `contracts/`, else this checkout's, when nil). `--base-path` applies to documents only.
    /// `prefixRewrite` (documents only) puts `to` in place of `from` at the start of every operation path that has it.
    public static func load(_ explicit: String?, basePath: String? = nil, prefixRewrite: (from: String, to: String)? = nil,
                            cache: ContractLintCache? = nil) throws(ContractLoadError) -> ContractSet {
        if let documents = documents(explicit) { return try ContractSet.load(documents: documents, basePath: basePath, prefixRewrite: prefixRewrite) }
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
