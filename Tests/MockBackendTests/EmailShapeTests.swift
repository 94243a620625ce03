import Testing

@testable import MockBackend

/// The ASCII shortcut in `CreateAnnouncementValidator.isWhitespace` must answer exactly as the Unicode property does,
/// so the email rule refuses the same texts as before (issue 29).
@Suite struct EmailShapeTests {
    @Test func whitespaceShortcutMatchesTheUnicodePropertyForEveryScalar() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if CreateAnnouncementValidator.isWhitespace(scalar) != scalar.properties.isWhitespace { differing.append(value) }
        }
        #expect(differing.isEmpty, "differs for \(differing.prefix(10).map { "U+" + String($0, radix: 16, uppercase: true) })")
    }

    /// The email rule as it was before the shortcut: the reference the fast one must agree with.
    static func referenceIsEmail(_ s: String) -> Bool {
        let scalars = Array(s.unicodeScalars)
        guard !scalars.contains(where: { $0.properties.isWhitespace }) else { return false }
        guard let at = scalars.firstIndex(of: "@"), scalars.lastIndex(of: "@") == at, at > 0 else { return false }
        let domain = scalars[(at + 1)...]
        return domain.indices.contains { i in domain[i] == "." && i > at + 1 && i < scalars.count - 1 }
    }

    @Test func emailRuleAgreesWithTheReferenceOnSeededRandomTexts() {
        let seed: UInt64 = 29
        print("EmailShapeTests seed \(seed)")
        var random = PetSpotRandom(seed: seed)
        // Characters near every decision the rule makes: the @, the dot, ASCII and non-ASCII white space, letters.
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "@", ".", " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{1C}", "\u{1F}",
                                          "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{FEFF}", "é", "🐶", "\u{7F}"]
        for round in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
            let s = String(text)
            #expect(CreateAnnouncementValidator.isEmail(s) == Self.referenceIsEmail(s),
                    "seed \(seed), round \(round): \(s.unicodeScalars.map { "U+" + String($0.value, radix: 16) })")
        }
    }
}
