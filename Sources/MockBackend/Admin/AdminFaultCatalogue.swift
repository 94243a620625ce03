import ContractKit
import ContractModel

/// What the dashboard offers to click: the loaded contracts, every fault kind with its fields and defaults, and the presets.
enum AdminFaultCatalogue {
    /// One fault kind's fields: name, default value (nil when optional and empty by default) and what it means.
    private static let kinds: [(kind: String, fields: [(name: String, value: Int?, help: String)], help: String)] = [
        ("status", [("status", 503, "HTTP status")], "answer this status instead of the backend"),
        ("delay", [("ms", 1500, "milliseconds")], "wait, then answer normally"),
        ("stall", [], "read the request, never answer (client times out)"),
        ("drop", [], "close without a byte (empty reply)"),
        ("reset", [], "abort with a TCP RST (connection reset)"),
        ("truncate", [("bytes", 10, "body bytes sent")], "headers and part of the body, then close"),
        ("malformed", [], "a 2xx whose body is not JSON"),
        ("slowBody", [("chunkBytes", 64, "bytes per chunk"), ("intervalMs", 200, "ms between chunks")], "drip the answer"),
        ("refuse", [("ms", nil, "ms offline (empty: until cleared)")], "stop listening: connection refused (offline)"),
        ("refuseAfterAnswer", [("ms", nil, "ms offline (empty: until cleared)")],
         "answer this request, then stop listening: the next connect is refused (offline between two calls)"),
    ]

    /// `{"contracts": [...], "kinds": [{"kind", "help", "fields": [{"name", "default", "help"}]}], "presets": [{"name", "rules"}]}`.
    /// `contracts`: the selectors a client developer picks from, the loaded contract set's ids.
    static func json(contracts: [String]) -> JSONValue {
        let kindList: [JSONValue] = kinds.map { k in
            .object([
                "kind": .string(k.kind), "help": .string(k.help),
                "fields": .array(k.fields.map { f in
                    .object(["name": .string(f.name), "default": f.value.map { .number(Double($0)) } ?? .null, "help": .string(f.help)])
                }),
            ])
        }
        let presets: [JSONValue] = FaultPreset.allCases.map { p in
            .object(["name": .string(p.rawValue), "rules": FaultRule.json(p.rules())["rules"] ?? .array([])])
        }
        return .object(["contracts": .array(contracts.map(JSONValue.string)), "kinds": .array(kindList), "presets": .array(presets)])
    }
}
