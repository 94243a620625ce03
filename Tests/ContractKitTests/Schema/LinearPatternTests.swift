import Foundation
import Testing

@testable import ContractKit

/// `LinearPattern` against a table of patterns and texts (ECMA-262 `u` semantics, search anywhere in the text), the
/// pathological inputs that made ICU backtrack for seconds, and ICU itself on seeded random ASCII text.
@Suite struct LinearPatternTests {
    /// `pattern`, then texts it matches, then texts it does not.
    struct Case: Sendable, CustomStringConvertible {
        let pattern: String
        let matching: [String]
        let failing: [String]
        var description: String { pattern }
    }

    static let email = #"^\s*$|^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$"#

    static let table: [Case] = [
        Case(pattern: "abc", matching: ["abc", "xabcx"], failing: ["ab", "acb", ""]),
        Case(pattern: "", matching: ["", "anything"], failing: []),
        Case(pattern: "^abc$", matching: ["abc"], failing: ["abcd", "xabc", "abc\n"]),
        Case(pattern: "^$", matching: [""], failing: ["\n", " "]),
        Case(pattern: "a|b|cd", matching: ["a", "xb", "cd"], failing: ["c", "d", ""]),
        Case(pattern: "^(a|b)c$", matching: ["ac", "bc"], failing: ["abc", "c"]),
        Case(pattern: "^(?:ab)+$", matching: ["ab", "abab"], failing: ["", "aba"]),
        Case(pattern: "^(?<pair>ab)*c", matching: ["c", "ababc"], failing: ["abac"]),
        Case(pattern: "^a*?b+?c??$", matching: ["b", "aabbc"], failing: ["ac", "abcc"]),
        Case(pattern: "^a{3}$", matching: ["aaa"], failing: ["aa", "aaaa"]),
        Case(pattern: "^a{2,}$", matching: ["aa", "aaaaa"], failing: ["a"]),
        Case(pattern: "^a{2,4}$", matching: ["aa", "aaa", "aaaa"], failing: ["a", "aaaaa"]),
        Case(pattern: "^(ab){0,2}$", matching: ["", "ab", "abab"], failing: ["ababab", "a"]),
        Case(pattern: "^[a-c]+$", matching: ["abcabc"], failing: ["abd", ""]),
        Case(pattern: "^[^a-c]$", matching: ["d", "é", "😀"], failing: ["a", "", "dd"]),
        Case(pattern: "^[-a]$", matching: ["-", "a"], failing: ["b"]),
        Case(pattern: "^[a-]$", matching: ["-", "a"], failing: ["b"]),
        Case(pattern: #"^[\d.]+$"#, matching: ["1.5"], failing: ["1,5"]),
        Case(pattern: #"^[\s\S]$"#, matching: ["\n", "x", "é"], failing: ["", "xy"]),
        Case(pattern: "^[]$", matching: [], failing: ["", "a"]),
        Case(pattern: "^[^]$", matching: ["a", "\n"], failing: [""]),
        Case(pattern: #"^[\]]$"#, matching: ["]"], failing: ["\\"]),
        Case(pattern: #"^\d\D\w\W\s\S$"#, matching: ["1a_ \t."], failing: ["1a_ \tx ", "٣a_ \t."]),
        Case(pattern: #"^\w+$"#, matching: ["snake_case9"], failing: ["é", "a-b"]),
        Case(pattern: #"^\s$"#, matching: ["\u{A0}", "\u{3000}", "\u{FEFF}", "\u{2028}", "\t"], failing: ["\u{200B}", "x"]),
        Case(pattern: "^.$", matching: ["a", "é", "😀", "\t"], failing: ["\n", "\r", "\u{2028}", "\u{2029}", ""]),
        Case(pattern: "^..$", matching: ["😀😀", "e\u{301}"], failing: ["😀"]),
        Case(pattern: "^é+$", matching: ["ééé"], failing: ["e\u{301}"]),
        Case(pattern: #"^\u00e9\x41\u{1F600}\uD83D\uDE00$"#, matching: ["éA😀😀"], failing: ["éA😀"]),
        Case(pattern: #"^\t\n\v\f\r\0\cJ$"#, matching: ["\t\n\u{0B}\u{0C}\r\u{0}\n"], failing: ["tnvfr0c"]),
        Case(pattern: #"^\.\-\/\@\$\^\(\)\[\]\{\}\|\*\+\?\\$"#, matching: [".-/@$^()[]{}|*+?\\"], failing: ["a-/@$^()[]{}|*+?\\"]),
        Case(pattern: #"\bcat\b"#, matching: ["cat", "a cat.", "cat!"], failing: ["cats", "concat"]),
        Case(pattern: #"\Bat"#, matching: ["cat"], failing: ["at", "a at"]),
        Case(pattern: "a]b}", matching: ["a]b}"], failing: ["ab"]),
        Case(pattern: "(a*)*b", matching: ["b", "aab"], failing: ["aaa"]),
        Case(pattern: "(|a)+$", matching: ["", "aaa", "b"], failing: []),
        Case(pattern: "^(a|aa)+$", matching: ["a", "aaaaa"], failing: ["aab", ""]),
        Case(pattern: #"\S"#, matching: ["x", " x "], failing: ["", "   ", "\u{A0}\t"]),
        Case(pattern: #"^\s*[0-9]+\s*$"#, matching: ["123", " 42 "], failing: ["", "1 2", "١٢"]),
        Case(pattern: #"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$"#, matching: ["2024-01-31", " 2024-01-31\u{A0}"], failing: ["2024-1-31", "2024-01-311"]),
        Case(pattern: #"^\s*$|[0-9]"#, matching: ["", "  ", "+48 600", "tel 1"], failing: ["none", "é"]),
        Case(pattern: email,
             matching: ["", "  ", "a@b.c", " jan@example.com ", "zoë@exämple.pl", "ó@ü.ß", "a@b.c.d", "\u{3000}a@b.c"],
             failing: ["a@b", "@b.c", "a@.c", "a@b.", "a b@c.d", "a@@b.c", "a@b@c.d", "é@" + String(repeating: ".", count: 10) + "@"]),
        Case(pattern: "^[0-9]{6}$", matching: ["123456"], failing: ["12345", "1234567", "12345a"]),
        Case(pattern: "^[A-Za-z0-9]{10}$", matching: ["abcDE12345"], failing: ["abcDE1234", "abcDE1234é"]),
        Case(pattern: "^([A-Za-z0-9]{10}|unknown)$", matching: ["unknown", "abcDE12345"], failing: ["unknowns"]),
        Case(pattern: #"^[^/]+\.[A-Za-z0-9]+$"#, matching: ["photo.jpg", "zdjęcie.png"], failing: ["a/b.jpg", "photo."]),
        Case(pattern: "^/images/", matching: ["/images/a.jpg"], failing: ["/img/a.jpg", "x/images/"]),
        Case(pattern: "^[A-Z][A-Z_]*$", matching: ["NOT_FOUND", "X"], failing: ["not", "_X", ""]),
    ]

    @Test(arguments: table) func matchesLikeECMAScript(_ c: Case) throws {
        let pattern = try LinearPattern(c.pattern)
        for text in c.matching { #expect(pattern.matches(text), "\(c.pattern) should match \(text.debugDescription)") }
        for text in c.failing { #expect(!pattern.matches(text), "\(c.pattern) should not match \(text.debugDescription)") }
    }

    @Test func theValidatorUsesItForAnyTextOfTheBundledEmailRule() throws {
        let set = try ContractSet.load(from: ContractSet.bundledDirectory)
        let schema = try #require(set.schema(named: "CreateAnnouncementRequest")?["properties"]?["email"])
        #expect(set.validate(.string("zoë@exämple.pl"), against: schema).isEmpty)
        #expect(set.validate(.string("zoë@exämple"), against: schema).map(\.keyword) == ["pattern"])
    }

    @Test func theStallingEmailIsRefused() throws {
        let text = "é@" + String(repeating: ".", count: 64_000) + "@"
        #expect(try !LinearPattern(Self.email).matches(text))
        let set = try ContractSet.load(from: ContractSet.bundledDirectory)
        let schema = try #require(set.schema(named: "CreateAnnouncementRequest")?["properties"]?["email"])
        #expect(set.validate(.string(text), against: schema).map(\.keyword) == ["pattern"])
    }

    @Test func nestedAlternationDoesNotBacktrack() throws {
        let pattern = try LinearPattern("^(a|aa)+$")
        #expect(!pattern.matches(String(repeating: "a", count: 10_000) + "b"))
        #expect(pattern.matches(String(repeating: "a", count: 10_000)))
        #expect(try !LinearPattern("^(a+)+$").matches(String(repeating: "a", count: 10_000) + "!"))
        #expect(try !LinearPattern("(x+x+)+y").matches(String(repeating: "x", count: 10_000)))
    }

    @Test func searchesAnywhereInTheText() throws {
        #expect(try LinearPattern("b+c").matches("aaabbbc"))
        #expect(try LinearPattern("^b").matches("b") && !LinearPattern("^b").matches("ab"))
        #expect(try LinearPattern("a$").matches("ba") && !LinearPattern("a$").matches("ab"))
    }

    /// Each refusal, its kind and where it points (1-based, in characters).
    @Test(arguments: [
        (#"^(a)\1$"#, LinearPatternError.Reason.notLinear, 5, "backreference (\\1)"),
        (#"(?<x>a)\k<x>"#, .notLinear, 8, "named backreference"),
        ("a(?=b)", .notLinear, 2, "lookahead (?=...)"),
        ("a(?!b)", .notLinear, 2, "lookahead (?!...)"),
        ("(?<=a)b", .notLinear, 1, "lookbehind (?<=...)"),
        ("(?<!a)b", .notLinear, 1, "lookbehind (?<!...)"),
        (#"\p{L}"#, .unsupported, 1, "Unicode property escapes"),
        ("(a", .syntax, 1, "never closed"),
        ("a)", .syntax, 2, "never opened"),
        ("[a", .syntax, 1, "never closed"),
        ("*a", .syntax, 1, "nothing to repeat"),
        ("a**", .syntax, 3, "nothing to repeat"),
        ("^*", .syntax, 2, "cannot be repeated"),
        ("a{2,1}", .syntax, 2, "out of order"),
        ("a{", .syntax, 2, "does not start a count"),
        ("[z-a]", .syntax, 4, "ends before it starts"),
        (#"[\d-z]"#, .syntax, 2, "single character at each end"),
        (#"\q"#, .syntax, 1, "\\q is not an escape"),
        (#"a\"#, .syntax, 2, "lone backslash"),
        (#"\uD800"#, .syntax, 1, "lone surrogate"),
        ("(?i)a", .syntax, 1, "(? must be followed by"),
        ("(a{1000}){1000}", .tooLarge, 10, "more than 5000 steps"),
        ("[a-z]{2000}[0-9]{2000}x{2000}", .tooLarge, 1, "more than 5000 steps"),
    ])
    func refusesWithReasonAndPosition(_ pattern: String, _ reason: LinearPatternError.Reason, _ position: Int, _ words: String) {
        #expect(throws: LinearPatternError.self) { try LinearPattern(pattern) }
        do {
            _ = try LinearPattern(pattern)
        } catch {
            #expect(error.reason == reason, "\(pattern)")
            #expect(error.position == position, "\(pattern): \(error)")
            #expect(error.description.contains(words), "\(pattern): \(error)")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let pattern = String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000)
        #expect(throws: LinearPatternError.self) { try LinearPattern(pattern) }
    }

    /// On printable ASCII without line breaks ICU and ECMA-262 agree for these patterns; seeded random texts compare them.
    @Test func agreesWithICUOnRandomASCII() throws {
        let patterns = [
            "a|b", "^(ab|a)*b$", "a{2,3}b?", #"[^\s@]+@[^\s@]+\.[^\s@]+"#, "^(a|b)*c+$", #"\bab"#, #"a\B"#, "(a*b*)*c",
            "^[a-c]{1,3}$", "(?:ab|ba){2}", "^a?b?c?$", #"\d+\.\d*"#, "^.{3}$", "[.@]{2}", "b$|^a",
        ]
        let seed: UInt64 = 29
        var rng = CompiledSchemaEquivalenceTests.Generator(state: seed)
        let alphabet = Array("abc @.1 ")
        for source in patterns {
            let linear = try LinearPattern(source)
            let icu = try NSRegularExpression(pattern: source)
            for _ in 0..<300 {
                let text = String((0..<Int(rng.next() % 9)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
                let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(linear.matches(text) == expected, "seed \(seed): \(source) on \(text.debugDescription)")
            }
        }
    }
}
