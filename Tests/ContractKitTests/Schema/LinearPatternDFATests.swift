import Testing

@testable import ContractKit

/// The lazily built automaton (`LinearPatternDFA`) must answer exactly as the Pike VM it is built from, on seeded random
/// patterns and texts (ASCII and not), on patterns whose automaton outgrows its table, and on the bundled email rule.
@Suite struct LinearPatternDFATests {
    typealias Generator = CompiledSchemaEquivalenceTests.Generator

    static let textAlphabet: [String] = ["a", "b", "c", "1", "@", ".", " ", "\t", "\n", "\u{A0}", "é", "\u{2028}", "\u{3000}", "🐶", "_"]
    static let atoms = ["a", "b", "c", "é", "🐶", "@", #"\."#, ".", #"\s"#, #"\S"#, #"\d"#, #"\w"#, "[^\\s@]", "[a-c]", "[^a]",
                        "[é-ü]", "^", "$", "\u{3000}"]

    /// A random pattern of the subset the matcher runs, without `\b` (those programs never use the automaton).
    static func pattern(depth: Int, _ rng: inout Generator) -> String {
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        if depth == 0 { return atoms[pick(atoms.count)] }
        switch pick(6) {
        case 0: return pattern(depth: depth - 1, &rng) + pattern(depth: depth - 1, &rng)
        case 1: return "(?:" + pattern(depth: depth - 1, &rng) + "|" + pattern(depth: depth - 1, &rng) + ")"
        case 2: return "(?:" + pattern(depth: depth - 1, &rng) + ")" + ["*", "+", "?", "{2}", "{1,3}", "{0,2}"][pick(6)]
        case 3: return "^" + pattern(depth: depth - 1, &rng)
        case 4: return pattern(depth: depth - 1, &rng) + "$"
        default: return pattern(depth: depth - 1, &rng) + pattern(depth: 0, &rng)
        }
    }

    static func text(maxLength: Int, _ rng: inout Generator) -> String {
        (0..<Int(rng.next() % UInt64(maxLength + 1))).map { _ in textAlphabet[Int(rng.next() % UInt64(textAlphabet.count))] }.joined()
    }

    @Test func agreesWithThePikeVMOnSeededRandomPatternsAndTexts() {
        let seed: UInt64 = 2_911
        print("LinearPatternDFATests seed \(seed)")
        var rng = Generator(state: seed)
        var compiled = 0
        for round in 0..<600 {
            let source = Self.pattern(depth: Int(rng.next() % 4), &rng)
            // The generator may repeat an anchor, which the matcher refuses; those patterns have nothing to compare.
            guard let linear = try? LinearPattern(source) else { continue }
            compiled += 1
            for _ in 0..<40 {
                let text = Self.text(maxLength: 24, &rng)
                #expect(linear.matches(text, engine: .lazyDFA) == linear.matches(text, engine: .pikeVM),
                        "seed \(seed), round \(round): \(source.debugDescription) on \(text.debugDescription)")
            }
        }
        #expect(compiled > 400, "seed \(seed): only \(compiled) random patterns compiled")
    }

    /// `(a|b)*a(a|b){12}` needs thousands of states on random a/b text: the table fills and restarts many times.
    @Test func agreesWhenTheAutomatonOutgrowsItsTable() throws {
        let seed: UInt64 = 29
        print("LinearPatternDFATests seed \(seed)")
        var rng = Generator(state: seed)
        for source in ["(a|b)*a(a|b){12}$", "a(a|b){10}b", "^(?:[ab]*a[ab]{9}b)+$"] {
            let linear = try LinearPattern(source)
            for _ in 0..<20 {
                let text = String((0..<2_000).map { _ in rng.next() % 2 == 0 ? Character("a") : "b" }) + (rng.next() % 2 == 0 ? "c" : "")
                #expect(linear.matches(text, engine: .lazyDFA) == linear.matches(text, engine: .pikeVM),
                        "seed \(seed): \(source) on \(text.prefix(40))… (\(text.count) characters)")
            }
        }
    }

    @Test func answersTheBundledEmailRuleOnLongTexts() throws {
        let email = try LinearPattern(LinearPatternTests.email)
        let dots = String(repeating: ".", count: 64_000)
        for (text, expected) in [("é@" + dots + "@", false), ("é@x" + dots + "x", true), ("  é@b.c" + String(repeating: " ", count: 500), true),
                                 (String(repeating: " \u{3000}", count: 400), true), (String(repeating: "é", count: 400) + "@b.c\n", true),
                                 (String(repeating: "é", count: 400) + "@b.c\n!", false)] {
            #expect(email.matches(text, engine: .lazyDFA) == expected, "\(text.prefix(12).debugDescription)… (\(text.count) characters)")
            #expect(email.matches(text, engine: .pikeVM) == expected, "\(text.prefix(12).debugDescription)… (\(text.count) characters)")
        }
    }
}
