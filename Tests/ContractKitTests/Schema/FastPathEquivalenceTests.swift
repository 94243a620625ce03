import Foundation
import Testing
@testable import ContractKit

/// The byte-level shortcuts live-traffic validation takes (issue 16) must decide exactly as the definitions they skip.
@Suite struct FastPathEquivalenceTests {
    static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    static let dateTimePattern = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"#

    /// Valid seeds and every single-character change, deletion and insertion of them (from a set of tricky characters).
    static func variants(of seeds: [String]) -> [String] {
        let alphabet: [Character] = ["0", "9", "a", "f", "g", "A", "F", "G", "-", ":", ".", "T", "t", "Z", "z", "+", " ", "\n", "é", "@", "_", "/"]
        var out = Set(seeds)
        for seed in seeds {
            let chars = Array(seed)
            for i in chars.indices {
                var removed = chars
                removed.remove(at: i)
                out.insert(String(removed))
                for c in alphabet {
                    var changed = chars
                    changed[i] = c
                    out.insert(String(changed))
                    var inserted = chars
                    inserted.insert(c, at: i)
                    out.insert(String(inserted))
                }
            }
            for c in alphabet { out.insert(seed + String(c)) }
        }
        return out.sorted()
    }

    @Test func uuidShortcutDecidesAsTheRegularExpression() throws {
        let seeds = ["3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c", "ABCDEF01-2345-6789-abcd-ef0123456789"]
        for text in Self.variants(of: seeds) {
            let regex = RegexCache.shared.matches(Self.uuidPattern, text) == true
            #expect(SchemaFormat.uuid.accepts(text) == regex, "\(text.debugDescription)")
            if let plain = SchemaFormat.plainASCII(text) { #expect(SchemaFormat.isUUID(plain) == regex, "\(text.debugDescription)") }
        }
    }

    @Test func dateTimeShapeDecidesAsTheRegularExpression() throws {
        let seeds = ["2026-11-23T20:41:13Z", "2026-11-23t20:41:13.123+01:00", "2026-01-01T00:00:00-12:30", "2026-11-23T20:41:13.5z"]
        for text in Self.variants(of: seeds) {
            guard let plain = SchemaFormat.plainASCII(text) else { continue }
            let regex = RegexCache.shared.matches(Self.dateTimePattern, text) == true
            #expect(SchemaFormat.hasDateTimeShape(plain) == regex, "\(text.debugDescription)")
        }
        #expect(SchemaFormat.dateTime.accepts("2026-11-23T20:41:13.123Z"))
        #expect(!SchemaFormat.dateTime.accepts("2026-11-23T24:00:00Z"))
        #expect(!SchemaFormat.dateTime.accepts("2026-02-30T10:00:00Z"))
    }

    @Test func patternShortcutsDecideAsICU() throws {
        let seeds = ["", " ", "CAT", "  2026-11-23 ", "2026-11-23", "123456", " 0042 ", "a@b.co", " x.y@ex.ample.org ", "@b.c", "a@.c",
                     "a@b.", "a@b@c.d", "+48 600 100 200", "/images/x.jpg", "VALIDATION_ERROR", "aB3dE5gH7j", "A_B"]
        for pattern in PatternShortcut.rules.keys.sorted() {
            let regex = try NSRegularExpression(pattern: pattern)
            let linear = try LinearPattern(pattern)
            for text in Self.variants(of: seeds) + seeds {
                guard let shortcut = PatternShortcut.matches(pattern, text) else {
                    #expect(text.utf8.contains { !(0x20..<0x7F).contains($0) }, "no shortcut for printable \(text.debugDescription)")
                    continue
                }
                let icu = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(shortcut == icu, "\(pattern) on \(text.debugDescription)")
                #expect(shortcut == linear.matches(text), "\(pattern) on \(text.debugDescription) (LinearPattern)")
            }
        }
    }

    @Test func pathTemplateStillMatchesTrailingSlashesAndRejectsOtherLengths() throws {
        let template = try #require(PathTemplate("/api/v1/announcements/{id}"))
        #expect(template.match("/api/v1/announcements/abc") == ["id": "abc"])
        #expect(template.match("/api/v1/announcements/abc/") == ["id": "abc"])
        #expect(template.match("/api/v1/announcements/a%20b?x=/y/z") == ["id": "a b"])
        #expect(template.match("/api/v1/announcements") == nil)
        #expect(template.match("/api/v1/announcements/abc/photos") == nil)
        #expect(template.match("/api/v1/announcements//") == nil)
        let root = try #require(PathTemplate("/"))
        #expect(root.match("/") == [:])
        #expect(root.match("//") == [:])
        #expect(root.match("/x") == nil)
    }

    @Test func pathTemplateAgreesWithSplittingThePathOnEveryShortPath() throws {
        let templates = ["/", "/api/health", "/api/v1/announcements/{id}", "/api/v1/announcements/{id}/photos", "/{a}/{b}"].compactMap(PathTemplate.init)
        let pieces = ["", "api", "v1", "announcements", "x", "a%20b", "é", "photos", "health"]
        var paths = ["", "/", "//", "///", "?", "/?a=/b", "#/x", "api/health"]
        for first in pieces {
            for second in pieces { for third in ["", "photos", "x"] { paths += ["/\(first)/\(second)/\(third)", "/\(first)/\(second)/\(third)/", "/\(first)/\(second)"] } }
        }
        paths += ["/api/v1/announcements/x/photos", "/api/v1/announcements/x/photos/", "/api/v1/announcements/x/photos//", "/api/health?x#y"]
        for template in templates {
            for path in paths {
                #expect(template.match(path) == Self.splitMatch(template, path), "\(template) on \(path.debugDescription)")
                // The count callers filter by never rules out a path the template matches.
                if template.match(path) != nil {
                    #expect(PathTemplate.segmentCount(of: path) == template.segments.count, "\(template) on \(path.debugDescription)")
                }
            }
        }
    }

    /// The straightforward matcher the byte walk replaced: cut the query, drop one trailing slash, split, compare.
    private static func splitMatch(_ template: PathTemplate, _ path: String) -> [String: String]? {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard bare.hasPrefix("/") else { return nil }
        var body = bare.dropFirst()
        if body.hasSuffix("/") { body = body.dropLast() }
        let parts = body.isEmpty ? [] : body.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == template.segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(template.segments, parts) {
            switch segment {
            case .literal(let literal): guard Array(literal.utf8) == Array(part.utf8) else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                values[name] = part.removingPercentEncoding ?? part
            }
        }
        return values
    }

    @Test func resolvedReferencesAgreeWithResolvingEachTime() throws {
        let directory = ContractSet.bundledDirectory
        let set = try ContractSet.load(from: directory)
        let validator = set.validator
        #expect(!validator.resolvedReferences.isEmpty)
        // The slow path, with the table out of the way: a validator over the same documents sees the same schemas.
        for (ref, known) in validator.resolvedReferences {
            let (filePart, fragment) = SchemaReference.split(ref)
            let document = try #require(validator.documents[filePart])
            #expect(known.scope.key == filePart)
            #expect(JSONPointer.resolve(fragment, in: document) == known.schema, "\(ref)")
        }
    }
}
