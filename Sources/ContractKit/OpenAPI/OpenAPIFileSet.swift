import Foundation

/// The files of one or more OpenAPI documents: the roots given and every file their `$ref`s name, read once each.
struct OpenAPIFileSet {
    private(set) var files: [URL: OpenAPISourceFile] = [:]
    /// Files a `$ref` names that could not be read, with why (reported once, where the first `$ref` names them).
    private(set) var unreadable: [URL: OpenAPIProblem] = [:]

    /// The file at `url`, read on first use; nil when it cannot be read or parsed.
    mutating func file(_ url: URL) -> OpenAPISourceFile? {
        let url = url.standardizedFileURL
        if let file = files[url] { return file }
        if unreadable[url] != nil { return nil }
        do {
            let file = try OpenAPISourceFile.read(url)
            files[url] = file
            return file
        } catch {
            unreadable[url] = error
            return nil
        }
    }

    /// Why `url` could not be read, when it could not.
    func failure(_ url: URL) -> OpenAPIProblem? {
        unreadable[url.standardizedFileURL]
    }
}

/// A place in a document: a file and a JSON pointer into it.
struct OpenAPILocation: Hashable, Sendable {
    let url: URL
    let pointer: String
}

/// A `$ref` split into the file it names (resolved against the referring file) and the JSON pointer of its fragment.
enum OpenAPIReference {
    /// Where `ref`, written in `file`, points; nil for a reference this reader does not follow (http URLs).
    static func target(_ ref: String, in file: URL) -> OpenAPILocation? {
        let hash = ref.firstIndex(of: "#")
        let path = String(ref[..<(hash ?? ref.endIndex)])
        var fragment = hash.map { String(ref[ref.index(after: $0)...]) } ?? ""
        fragment = fragment.removingPercentEncoding ?? fragment
        if path.contains("://") { return nil }
        let url = path.isEmpty ? file : URL(fileURLWithPath: path, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
        return OpenAPILocation(url: url.standardizedFileURL, pointer: fragment)
    }
}
