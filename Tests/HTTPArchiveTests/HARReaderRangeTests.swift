import ContractKit
import Foundation
import Testing

@testable import HTTPArchive

/// Issue 37: a HAR's numbers have ranges; 1e19, 2^63, 1e308, NaN and Infinity once stopped `import har` with SIGILL.
@Suite struct HARReaderRangeTests {
    static let hostile = ["1e19", "9223372036854775808", "1e308", "1e300", "-2", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"1e19\"", "1.5"]

    /// Each numeric field the reader takes, as a JSON pointer in the one-entry HAR below and whether fractions are fine.
    static let fields: [(pointer: String, fractions: Bool)] = [
        ("/log/entries/0/response/content/size", false), ("/log/entries/0/request/bodySize", false),
        ("/log/entries/0/response/bodySize", false), ("/log/entries/0/time", true),
        ("/log/entries/0/timings/send", true), ("/log/entries/0/timings/wait", true), ("/log/entries/0/timings/receive", true),
        ("/log/entries/0/response/status", false),
    ]

    static func har(_ pointer: String, _ value: String) -> String {
        func v(_ p: String, _ fallback: String) -> String { p == pointer ? value : fallback }
        return """
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{
          "startedDateTime": "2026-11-25T10:00:00Z", "time": \(v("/log/entries/0/time", "1")),
          "request": {"method": "GET", "url": "http://x.test/api/health", "headers": [], "bodySize": \(v("/log/entries/0/request/bodySize", "0"))},
          "response": {"status": \(v("/log/entries/0/response/status", "200")), "headers": [], "bodySize": \(v("/log/entries/0/response/bodySize", "0")),
                       "content": {"size": \(v("/log/entries/0/response/content/size", "0")), "mimeType": "application/json"}},
          "timings": {"send": \(v("/log/entries/0/timings/send", "0")), "wait": \(v("/log/entries/0/timings/wait", "0")), "receive": \(v("/log/entries/0/timings/receive", "0"))}
        }]}}
        """
    }

    @Test(arguments: Self.hostile)
    func eachNumericFieldRefusesTheValueNamingItsPointer(_ value: String) {
        for field in Self.fields {
            let acceptable = value == "1.5" && field.fractions
            do {
                _ = try HARReader.read(Data(Self.har(field.pointer, value).utf8), file: "x.har")
                #expect(acceptable, "\(field.pointer) = \(value) was accepted")
            } catch {
                #expect(!acceptable, "\(field.pointer) = \(value): \(error)")
                #expect(error.location == field.pointer, "\(error)")
                #expect(error.entry == 0)
            }
        }
    }

    @Test func negativeZeroAndTheLargestSizesRead() throws {
        let log = try HARReader.read(Data(Self.har("/log/entries/0/response/content/size", "\(HARReader.maxSize)").utf8), file: "x.har")
        #expect(log.entries[0].response.content.size == HARReader.maxSize)
        let zero = try HARReader.read(Data(Self.har("/log/entries/0/time", "-0").utf8), file: "x.har")
        #expect(zero.entries[0].time == 0 && zero.entries[0].time.sign == .plus)
        #expect(try HARReader.read(Data(Self.har("/log/entries/0/request/bodySize", "-1").utf8), file: "x.har").entries[0].request.bodySize == -1)
    }
}
