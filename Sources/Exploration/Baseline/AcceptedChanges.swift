import ContractKit
import Foundation

/// The changes between a baseline and a target that a team has reviewed (`verify --baseline … --accept FILE`), like
/// approved snapshots: each names an operation and a JSON pointer into its answer body or a header.
///
/// ```json
/// {"accepted": [{"operation": "getAnnouncement", "pointer": "/description", "reason": "trimmed since 2.3"},
///               {"operation": "listAnnouncements", "header": "cache-control"}]}
/// ```
public struct AcceptedChanges: Sendable, Equatable {
    /// One reviewed change.
    public struct Entry: Sendable, Equatable {
        /// The contract id (or `METHOD path` beyond the contracts) the change is seen on.
        public let operation: String
        /// The JSON pointer of the body member that changed, or nil for a header.
        public let pointer: String?
        /// The header whose value changed (lower case), or nil for a body member.
        public let header: String?
    }

    /// The reviewed changes, in file order.
    public let entries: [Entry]

    /// No change accepted.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Reads an accept file; throws naming the file and the entry that is not as expected.
    public static func parse(_ data: Data, file: String) throws(AcceptedChangesError) -> AcceptedChanges {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw AcceptedChangesError(file: file, location: "", message: "is not JSON: \(error)")
        }
        guard let list = json["accepted"]?.arrayValue, json.objectValue?.count == 1 else {
            throw AcceptedChangesError(file: file, location: "", message: "expected an object with one member, \"accepted\": an array of changes")
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            let location = "/accepted/\(index)"
            guard let object = item.objectValue else {
                throw AcceptedChangesError(file: file, location: location, message: "expected an object with \"operation\" and \"pointer\" or \"header\"")
            }
            if let unknown = object.keys.first(where: { !["operation", "pointer", "header", "reason"].contains($0) }) {
                throw AcceptedChangesError(file: file, location: location + "/" + unknown,
                                           message: "unknown member; expected operation, pointer or header, and reason")
            }
            guard let operation = object["operation"]?.stringValue, !operation.isEmpty else {
                throw AcceptedChangesError(file: file, location: location + "/operation", message: "expected the operation's contract id, a non-empty string")
            }
            let pointer = object["pointer"]?.stringValue
            let header = object["header"]?.stringValue?.lowercased()
            guard (pointer == nil) != (header == nil) else {
                throw AcceptedChangesError(file: file, location: location, message: "expected exactly one of \"pointer\" (a JSON pointer such as /description) or \"header\"")
            }
            if let pointer, !pointer.isEmpty, !pointer.hasPrefix("/") {
                throw AcceptedChangesError(file: file, location: location + "/pointer", message: "expected a JSON pointer starting with /, got \"\(pointer)\"")
            }
            entries.append(Entry(operation: operation, pointer: pointer, header: header))
        }
        return AcceptedChanges(entries: entries)
    }

    /// Whether every difference of `group` is a reviewed change: an accepted group is a change, never a failure.
    public func accepts(_ group: DifferenceGroup) -> Bool {
        guard group.isNote, !group.differences.isEmpty else { return false }
        return group.differences.allSatisfy { difference in
            entries.contains { entry in
                guard entry.operation == group.route || entry.operation == difference.readContractID else { return false }
                if let pointer = entry.pointer { return difference.bodyPointer == pointer }
                if let header = entry.header { return difference.aspect.hasSuffix("header \(header)") }
                return false
            }
        }
    }
}

/// An accept file that cannot be used: the file, where in it, and what was expected.
public struct AcceptedChangesError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let location: String
    public let message: String

    public var description: String { "\(file)\(location.isEmpty ? "" : " at \(location)"): \(message)" }
}

extension ExplorationOutcome {
    /// The outcome without the groups `accepted` lists, and those groups (the report names them as accepted changes).
    public func removing(_ accepted: AcceptedChanges) -> (outcome: ExplorationOutcome, accepted: [DifferenceGroup]) {
        var outcome = self
        let taken = groups.filter { accepted.accepts($0) }
        outcome.groups = groups.filter { !accepted.accepts($0) }
        return (outcome, taken)
    }
}
