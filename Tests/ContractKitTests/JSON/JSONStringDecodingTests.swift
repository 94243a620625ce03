import Testing

@testable import ContractKit

/// Strings with escapes decode as the concatenation of each raw run (decoded and repaired on its own, as
/// `String(decoding:as:)` does) and each escaped scalar, on seeded random mixes of ASCII, non-ASCII, invalid UTF-8 and
/// escapes.
@Suite struct JSONStringDecodingTests {
    /// Raw pieces: ASCII, two-, three- and four-byte characters, and bytes that are not valid UTF-8 where they stand.
    static let raw: [[UInt8]] = [Array("a".utf8), Array(".".utf8), Array("é".utf8), Array("€".utf8), Array("🐶".utf8),
                                 [0xC3], [0xE2, 0x82], [0x80], [0xFF], [0xF0, 0x9F, 0x90]]
    /// Escapes and the scalar each one stands for.
    static let escapes: [(String, Unicode.Scalar)] = [(#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"),
                                                      (#"\u00e9"#, "é"), (#"\u0080"#, "\u{80}"), (#"\ud83d\udc36"#, "🐶"), (#"\t"#, "\t")]

    @Test func decodesRunsAndEscapesAlikeOnSeededRandomStrings() throws {
        let seed: UInt64 = 1_729
        print("JSONStringDecodingTests seed \(seed)")
        var rng = CompiledSchemaEquivalenceTests.Generator(state: seed)
        for round in 0..<3_000 {
            var document: [UInt8] = Array("\"".utf8)
            var expected = ""
            var run: [UInt8] = []
            for _ in 0..<Int(rng.next() % 12) {
                if rng.next() % 3 == 0 {
                    expected += String(decoding: run, as: UTF8.self)
                    run = []
                    let (text, scalar) = Self.escapes[Int(rng.next() % UInt64(Self.escapes.count))]
                    document += Array(text.utf8)
                    expected.unicodeScalars.append(scalar)
                } else {
                    let piece = Self.raw[Int(rng.next() % UInt64(Self.raw.count))]
                    document += piece
                    run += piece
                }
            }
            expected += String(decoding: run, as: UTF8.self)
            document += Array("\"".utf8)
            let parsed = try JSONValue(parsing: document)
            #expect(parsed == .string(expected), "seed \(seed), round \(round): \(document)")
            #expect(parsed.stringValue?.unicodeScalars.elementsEqual(expected.unicodeScalars) == true, "seed \(seed), round \(round)")
        }
    }
}
