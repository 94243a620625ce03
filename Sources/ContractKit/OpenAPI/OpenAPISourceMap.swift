import Foundation

/// Where each part of a translated contract folder came from in the OpenAPI documents, so a problem the folder loader
/// finds at a folder file's JSON pointer is reported at the document's file, line, column and pointer.
public struct OpenAPISourceMap: Sendable {
    struct Entry: Sendable {
        let pointer: String
        let file: OpenAPISourceFile
        let at: String
    }

    /// Per folder file, its mapped pointers, longest first when looked up.
    private var entries: [String: [Entry]] = [:]

    /// `key status code` of each error code the translation had to make up (`HTTP_<status>`): the document states none,
    /// so a drift report must not hold the server to it.
    private var madeCodes: Set<String> = []
    /// `key status name` of each example the translation made from a schema: its values are the least the schema allows,
    /// not something the document says the server answers.
    private var madeExamples: Set<String> = []

    /// The path of every server the documents name (`servers[*].url`, variables at their defaults), in document order,
    /// each once: the base paths a document says it may be served under.
    public private(set) var serverPaths: [String] = []

    mutating func addServerPath(_ path: String) {
        if !serverPaths.contains(path) { serverPaths.append(path) }
    }

    mutating func addMadeCode(key: String, status: Int, code: String) { madeCodes.insert("\(key) \(status) \(code)") }
    mutating func addMadeExample(key: String, status: Int, name: String) { madeExamples.insert("\(key) \(status) \(name)") }

    /// Whether the document states `code` for `status` in folder file `key` (false when the translation made it up).
    public func states(code: String, status: Int, key: String) -> Bool { !madeCodes.contains("\(key) \(status) \(code)") }

    /// Whether the example `name` of `status` in folder file `key` is the document's own (false when made from a schema).
    public func states(example name: String, status: Int, key: String) -> Bool { !madeExamples.contains("\(key) \(status) \(name)") }

    mutating func add(key: String, pointer: String, file: OpenAPISourceFile, at: String) {
        entries[key, default: []].append(Entry(pointer: pointer, file: file, at: at))
    }

    /// The document place of `pointer` in folder file `key`: the deepest mapped prefix, the rest of the pointer appended
    /// when it exists in the document, else the prefix's own place.
    func locate(key: String, pointer: String) -> (file: String, line: Int?, column: Int?, pointer: String)? {
        guard let list = entries[key] else { return nil }
        var best: Entry?
        for entry in list where pointer == entry.pointer || pointer.hasPrefix(entry.pointer + "/") || entry.pointer.isEmpty {
            if best == nil || entry.pointer.count > best!.pointer.count { best = entry }
        }
        guard let best else { return nil }
        let rest = String(pointer.dropFirst(best.pointer.count))
        let candidate = best.at + rest
        let at = JSONPointer.resolve(candidate, in: best.file.value) != nil ? candidate : best.at
        let position = best.file.position(of: at)
        return (best.file.display, position?.line, position?.column, at)
    }

    /// Forgets item `index` of the list at `list` in folder file `key` and moves the later items' places up by one.
    mutating func removeItem(key: String, list: String, index: Int) {
        guard let current = entries[key] else { return }
        let prefix = list + "/"
        entries[key] = current.compactMap { entry in
            guard entry.pointer.hasPrefix(prefix) else { return entry }
            let rest = entry.pointer.dropFirst(prefix.count)
            let head = rest.prefix { $0 != "/" }
            guard let i = Int(head) else { return entry }
            if i == index { return nil }
            if i < index { return entry }
            return Entry(pointer: prefix + String(i - 1) + rest.dropFirst(head.count), file: entry.file, at: entry.at)
        }
    }

    /// The document place of a contract (`key` its folder file), for reports that cite the document line.
    public func location(ofContractFile key: String, pointer: String = "") -> (file: String, line: Int?, column: Int?, pointer: String)? {
        locate(key: key, pointer: pointer)
    }
}
