import ContractKit
import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct FaultRuleParserTests {
    private func parse(_ text: String) throws -> [FaultRule] {
        try FaultRule.parseRules(try JSONValue(parsing: text), file: "faults.json")
    }

    private func failure(_ text: String) throws -> FaultRuleError? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as FaultRuleError {
            return error
        }
    }

    @Test func parsesTheBriefsExample() throws {
        let rules = try parse("""
        {"rules": [
          {"name": "second upload times out", "contract": "uploadPhoto", "calls": [2], "fault": {"kind": "stall"}},
          {"method": "POST", "path": "/api/v1/announcements/{id}/photos", "from": 3, "every": 2, "times": 1,
           "fault": {"kind": "status", "status": 503, "headers": {"Retry-After": "1"}}},
          {"probability": 0.2, "seed": 42, "fault": {"kind": "drop"}}
        ]}
        """)
        #expect(rules.count == 3)
        #expect(rules[0] == FaultRule(name: "second upload times out", selector: FaultSelector(contract: "uploadPhoto"), calls: [2...2], fault: .stall))
        #expect(rules[1].selector == FaultSelector(method: "POST", path: "/api/v1/announcements/{id}/photos"))
        #expect(rules[1].from == 3 && rules[1].every == 2 && rules[1].times == 1)
        #expect(rules[1].fault == .status(503, headers: ["Retry-After": "1"]))
        #expect(rules[2].probability == 0.2 && rules[2].seed == 42 && rules[2].fault == .drop)
        #expect(rules[2].selector.isEmpty)
    }

    @Test func parsesEveryKind() throws {
        let rules = try parse("""
        [{"fault": {"kind": "status", "status": 500, "body": {"error": "x"}}},
         {"fault": {"kind": "delay", "ms": 1500}},
         {"fault": {"kind": "stall"}},
         {"fault": {"kind": "drop"}},
         {"fault": {"kind": "reset"}},
         {"fault": {"kind": "truncate", "bytes": 10}},
         {"fault": {"kind": "malformed"}},
         {"fault": {"kind": "malformed", "status": 201, "body": "<html>"}},
         {"fault": {"kind": "slowBody", "chunkBytes": 16, "intervalMs": 100}},
         {"fault": {"kind": "refuse", "ms": 2000}},
         {"fault": {"kind": "refuse"}}]
        """)
        #expect(rules.map(\.fault) == [
            .status(500, body: .object(["error": "x"])), .delay(ms: 1500), .stall, .drop, .reset, .truncate(bytes: 10),
            .malformed(), .malformed(status: 201, body: "<html>"), .slowBody(chunkBytes: 16, intervalMs: 100),
            .refuse(ms: 2000), .refuse(ms: nil),
        ])
    }

    @Test func parsesCallRanges() throws {
        let rules = try parse(#"[{"calls": [1, "3-5", "8-"], "fault": {"kind": "drop"}}]"#)
        #expect(rules[0].calls == [1...1, 3...5, 8...Int.max])
    }

    @Test func roundTripsThroughJSON() throws {
        let text = """
        {"rules": [{"name": "n", "contract": "uploadPhoto", "method": "POST", "path": "/a/{id}", "calls": [2, "4-6", "9-"],
          "from": 2, "every": 3, "times": 4, "probability": 0.5, "seed": 7,
          "fault": {"kind": "status", "status": 503, "body": "busy", "headers": {"Retry-After": "1"}}}]}
        """
        let rules = try parse(text)
        let again = try FaultRule.parseRules(FaultRule.json(rules), file: "round trip")
        #expect(again == rules)
    }

    @Test func errorsNameFileAndPointer() throws {
        let cases: [(String, String)] = [
            (#"{"rulez": []}"#, "/rulez"),
            (#"{"rules": {}}"#, "/rules"),
            (#"{"rules": [{"fault": {"kind": "explode"}}]}"#, "/rules/0/fault/kind"),
            (#"{"rules": [{"contract": "a"}]}"#, "/rules/0"),
            (#"{"rules": [{"calls": [0], "fault": {"kind": "drop"}}]}"#, "/rules/0/calls/0"),
            (#"{"rules": [{"calls": ["5-2"], "fault": {"kind": "drop"}}]}"#, "/rules/0/calls/0"),
            (#"{"rules": [{"probability": 2, "fault": {"kind": "drop"}}]}"#, "/rules/0/probability"),
            (#"{"rules": [{"fault": {"kind": "status", "status": 99}}]}"#, "/rules/0/fault/status"),
            (#"{"rules": [{"fault": {"kind": "delay"}}]}"#, "/rules/0/fault"),
            (#"{"rules": [{"fault": {"kind": "stall", "ms": 3}}]}"#, "/rules/0/fault/ms"),
            (#"{"rules": [{"fault": {"kind": "malformed", "status": 500}}]}"#, "/rules/0/fault/status"),
            (#"{"rules": [{"fault": {"kind": "slowBody", "chunkBytes": 0, "intervalMs": 1}}]}"#, "/rules/0/fault/chunkBytes"),
            (#"{"rules": [{"path": "no-slash", "fault": {"kind": "drop"}}]}"#, "/rules/0/path"),
            (#"{"rules": [{"fault": {"kind": "drop"}}, {"from": 0, "fault": {"kind": "drop"}}]}"#, "/rules/1/from"),
            (#""text""#, ""),
            (#"{"rules": [{"fault": {"kind": "status", "status": 503, "headers": {"Bad Name": "1"}}}]}"#, "/rules/0/fault/headers/Bad Name"),
            (#"{"rules": [{"fault": {"kind": "status", "status": 503, "headers": {"": "1"}}}]}"#, "/rules/0/fault/headers/"),
            (#"{"rules": [{"fault": {"kind": "status", "status": 503, "headers": {"X-A": "1\r\nSet-Cookie: x"}}}]}"#, "/rules/0/fault/headers/X-A"),
        ]
        for (text, pointer) in cases {
            let error = try failure(text)
            #expect(error?.pointer == pointer, "\(text)")
            #expect(error?.file == "faults.json")
            #expect(error?.description.hasPrefix("faults.json:") == true)
        }
    }

    @Test func pathPatterns() {
        let pattern = PathPattern("/api/v1/announcements/{id}/photos")
        #expect(pattern.matches("/api/v1/announcements/abc/photos"))
        #expect(!pattern.matches("/api/v1/announcements/photos"))
        #expect(!pattern.matches("/api/v1/announcements/abc/photos/x"))
        #expect(PathPattern("/images/*").matches("/images/a.png"))
        #expect(PathPattern("/api/**").matches("/api/v1/anything/here"))
        #expect(!PathPattern("/api/**").matches("/images/x"))
    }
}
