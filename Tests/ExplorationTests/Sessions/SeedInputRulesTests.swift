import Testing

@testable import ScenarioEngine

/// The seeds' input rules: strict where every seed line agrees, `either` where they conflict.
@Suite("seed input rules")
struct SeedInputRulesTests {
    @Test("phones", arguments: [
        ("+48 123 456 789", "valid"), ("600-700-800", "valid"), ("  1234567\n", "valid"), ("123456", "invalid"),
        ("123456789012", "invalid"), ("12345a67", "invalid"), ("(555) 123-4567", "either"), ("12+345678", "either"),
        ("١٢٣٤٥٦٧", "either"),
    ])
    func phone(_ text: String, _ expected: String) {
        #expect(Self.name(SeedInputRules.phone(text)) == expected, "\(text)")
    }

    @Test("emails", arguments: [
        ("owner@example.com", "valid"), ("Jan.K+pets@mail.example.pl", "valid"), (" OWNER@EXAMPLE.COM ", "valid"),
        ("owner@example", "invalid"), ("owner@", "invalid"), ("owner example.com", "invalid"), ("a@b.c0m", "invalid"),
        ("a@b.c", "either"), ("żaneta@example.com", "either"),
    ])
    func email(_ text: String, _ expected: String) {
        #expect(Self.name(SeedInputRules.email(text)) == expected, "\(text)")
    }

    @Test("reward limit")
    func reward() {
        #expect(SeedInputRules.rewardAfterTyping(String(repeating: "é", count: 100), previous: ["x"]) == [String(repeating: "é", count: 100)])
        let long = String(repeating: "a", count: 121)
        #expect(SeedInputRules.rewardAfterTyping(long, previous: ["x"]).contains("x"))
        #expect(SeedInputRules.rewardAfterTyping(long, previous: ["x"]).contains(String(repeating: "a", count: 120)))
        let emoji = String(repeating: "🐶", count: 100)
        #expect(SeedInputRules.rewardAfterTyping(emoji, previous: ["x"]).contains(emoji))
        #expect(SeedInputRules.rewardAfterTyping(emoji, previous: ["x"]).contains("x"))
    }

    static func name(_ v: InputVerdict) -> String {
        switch v {
        case .valid: return "valid"
        case .invalid: return "invalid"
        case .either: return "either"
        }
    }
}
