import Foundation
import Testing

@testable import ContractModel

/// `Exchange.mediaType` skips Foundation for ASCII; it must give what the Foundation definition gives.
@Suite struct ExchangeMediaTypeTests {
    static func foundationDefinition(_ contentType: String) -> String {
        contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    @Test func agreesWithTheFoundationDefinition() {
        let samples = [
            "application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", "  text/plain\t ; q=1",
            "", ";", ";application/json", ";;Text/HTML; a", " ", "\t;x", "multipart/form-data; boundary=abc", "image/*", "APPLICATION/VND.API+JSON",
            "application/json\u{00A0}", "t\u{00E9}xt/plain; a=b",
        ]
        for sample in samples {
            #expect(Exchange.mediaType(sample) == Self.foundationDefinition(sample), "\(sample.debugDescription)")
        }
    }
}
