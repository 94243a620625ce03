import Testing

@testable import Exploration
@testable import ScenarioEngine

/// The seeds' input rules: strict where every seed line agrees, `either` where they conflict.
@Suite("seed input rules")
struct SeedInputRulesTests {
    @Test("phones", arguments: [
        ("+48 123 456 789", "valid"), ("600-700-800", "valid"), ("  1234567\t", "valid"), ("  1234567\n", "either"), ("123456", "invalid"),
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
        // RFC 5322 forbids these placements, a basic pattern (the real iOS app's) accepts them: either reading.
        ("owner..x@example.com", "either"), (".owner@example.com", "either"), ("owner.@example.com", "either"), ("owner@-mail.example.com", "either"),
        ("own,er@example.com", "invalid"),
        // Trimmed or not at a line break is the platform's (the real iOS app trims `.whitespaces`, keeping it).
        ("owner@example.com\n", "either"), ("\towner@example.com ", "valid"), ("owner@example\n", "invalid"),
    ])
    func email(_ text: String, _ expected: String) {
        #expect(Self.name(SeedInputRules.email(text)) == expected, "\(text)")
    }

    /// `local@` + labels of 63 characters + `.com`, exactly `length` characters long.
    static func longDomain(_ length: Int, local: String = "owner") -> String {
        FieldGrammar.aroundLimit(local + "@example.com", length: length, longLocal: false)
    }

    @Test("emails around 254 characters: valid up to 254 within RFC 5321's part limits, either beyond any limit")
    func emailLengths() {
        for length in 252...256 {
            let text = Self.longDomain(length)
            #expect(text.count == length, "\(text.count) != \(length)")
            #expect(text.split(separator: "@")[1].split(separator: ".").allSatisfy { $0.count <= 63 })
            #expect(Self.name(SeedInputRules.email(text)) == (length <= 254 ? "valid" : "either"), "\(length)")
        }
        // Surrounding whitespace is trimmed before counting (001 Edge Cases: "trim whitespace").
        #expect(Self.name(SeedInputRules.email(" " + Self.longDomain(254) + " ")) == "valid")
        // A 65-character local part or a 64-character label is past RFC 5321 only: either reading.
        let longLocal = FieldGrammar.aroundLimit("owner@example.com", length: 100, longLocal: true)
        #expect(longLocal.count == 100)
        #expect(Self.name(SeedInputRules.email(longLocal)) == "either")
        #expect(Self.name(SeedInputRules.email(String(repeating: "a", count: 64) + "@example.com")) == "valid")
        #expect(Self.name(SeedInputRules.email("a@" + String(repeating: "d", count: 64) + ".com")) == "either")
        // Lengths do not rescue a malformed address.
        #expect(Self.name(SeedInputRules.email(Self.longDomain(256).replacingOccurrences(of: "@", with: ""))) == "invalid")
    }

    @Test("the email grammar reaches lengths 252 to 256")
    func grammarLengths() {
        var seen = Set<Int>()
        var d = Draw(seed: 11)
        for _ in 0..<3000 { seen.insert(FieldGrammar.email(&d).trimmingCharacters(in: .whitespaces).count) }
        #expect(Set(252...256).isSubset(of: seen), "\(seen.filter { $0 > 200 }.sorted())")
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
