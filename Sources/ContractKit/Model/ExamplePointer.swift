import Foundation

/// Where a named example sits in a contract document, so a report about that example points at its line.
public enum ExamplePointer {
    /// The pointer of the response example called `name` (e.g. `/responses/2/examples/0`), else of the request example,
    /// or nil when the contract has neither.
    public static func find(_ name: String, in contract: JSONValue) -> String? {
        for (i, response) in (contract["responses"]?.arrayValue ?? []).enumerated() {
            if let j = (response["examples"]?.arrayValue ?? []).firstIndex(where: { $0["name"]?.stringValue == name }) {
                return "/responses/\(i)/examples/\(j)"
            }
        }
        if let j = (contract["request"]?["examples"]?.arrayValue ?? []).firstIndex(where: { $0["name"]?.stringValue == name }) {
            return "/request/examples/\(j)"
        }
        return nil
    }

    /// `find` in the contract file at `url`; nil when it cannot be read or parsed.
    public static func find(_ name: String, inFile url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path), let contract = try? JSONValue(parsing: data) else { return nil }
        return find(name, in: contract)
    }
}
