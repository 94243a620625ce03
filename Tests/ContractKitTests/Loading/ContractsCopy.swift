import Foundation
@testable import ContractKit

/// A throw-away copy of the bundled contracts that a test edits, deleted by `remove()`.
struct ContractsCopy {
    let url: URL

    init(from folder: URL = ContractSet.bundledDirectory) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: folder, to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Rewrites one JSON file of the copy (path relative to the folder) through `edit`.
    func edit(_ file: String, _ edit: (inout JSONValue) -> Void) throws {
        let fileURL = url.appendingPathComponent(file)
        var value = try JSONValue(parsing: Data(contentsOf: fileURL))
        edit(&value)
        try value.data(pretty: true).write(to: fileURL)
    }

    func delete(_ file: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(file))
    }

    func load() throws -> ContractSet {
        try ContractSet.load(from: url)
    }
}

extension JSONValue {
    /// Sets (or, with nil, removes) the value at `pointer`; intermediate objects must exist.
    mutating func set(_ pointer: String, _ newValue: JSONValue?) {
        guard let tokens = JSONPointer.tokens(pointer), let first = tokens.first else {
            if let newValue { self = newValue }
            return
        }
        let rest = tokens.dropFirst().map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
        switch self {
        case .object(var object):
            if rest.isEmpty {
                object[first] = newValue
            } else if var child = object[first] {
                child.set(rest, newValue)
                object[first] = child
            }
            self = .object(object)
        case .array(var items):
            guard let i = Int(first), i >= 0, i <= items.count else { return }
            if rest.isEmpty {
                if let newValue { if i == items.count { items.append(newValue) } else { items[i] = newValue } } else if i < items.count { items.remove(at: i) }
            } else if i < items.count {
                items[i].set(rest, newValue)
            }
            self = .array(items)
        default:
            return
        }
    }
}
