import ContractKit
import Foundation
import ScenarioEngine
import Testing

@testable import Exploration

/// A record key (fb9f56a's users' email) carries the run's tag, so a second run against a long-lived server registers
/// its own users instead of meeting the first run's: same length, case and form, so every rule answers as generated.
@Suite struct RunTagTests {
    static func fresh(tag: String, key: String? = "email") -> FreshValues {
        var fresh = FreshValues(unknownID: "00000000-0000-4000-8000-000000000000", unique: UniqueStandIns(fields: [], runToken: "t"), run: UniqueStandIns(fields: [], runToken: "t"), registered: [:], fieldsByContract: [:],
                                boundary: "0", runTag: tag)
        fresh.keyField = key
        return fresh
    }

    @Test func theDomainsFirstLabelCarriesTheTagLetterForLetter() {
        let tagged = Self.fresh(tag: "k3j9").withRunTag(["email": "  Owner@EXAMPLE.com  ", "password": "correct horse"])
        #expect(tagged["email"]?.stringValue == "  Owner@K3J9K3J.com  ")
        #expect(tagged["password"]?.stringValue == "correct horse")
        // Another run, another user; the same run, the same user in any case.
        let other = Self.fresh(tag: "x0q2").withRunTag(["email": "owner@example.com"])
        #expect(other["email"]?.stringValue == "owner@x0q2x0q.com")
        let lower = Self.fresh(tag: "k3j9").withRunTag(["email": "owner@example.com"])
        #expect(lower["email"]?.stringValue?.lowercased() == tagged["email"]?.stringValue?.trimmingCharacters(in: .whitespaces).lowercased())
    }

    @Test func aRawJSONBodyIsTaggedWhereTheKeyStands() {
        let raw = #"{ "email" : "owner@example.com", "password": "correct horse" }"#
        #expect(Self.fresh(tag: "k3j9").withRunTag(text: raw) == #"{ "email" : "owner@k3j9k3j.com", "password": "correct horse" }"#)
        #expect(Self.fresh(tag: "k3j9").withRunTag(text: "{not json") == "{not json")
    }

    @Test func valuesWithoutADomainAndOtherFieldsAreLeftAsGenerated() {
        for value: JSONValue in ["", "no-at-sign", 42, .null] {
            #expect(Self.fresh(tag: "k3j9").withRunTag(["email": value])["email"] == value)
        }
        #expect(Self.fresh(tag: "k3j9", key: nil).withRunTag(["email": "owner@example.com"])["email"] == "owner@example.com")
        let long = String(repeating: "a", count: 240) + "@example.com"
        #expect(Self.fresh(tag: "k3j9").withRunTag(["email": .string(long)])["email"]?.stringValue?.count == long.count)
    }
}
