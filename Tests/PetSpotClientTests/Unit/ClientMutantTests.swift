import Foundation
import Testing
@testable import PetSpotClient

/// The mutation benchmark's switch (bench/mutants/): the catalogue and the code name the same variants, and nothing is
/// switched on unless `spotcheck-client` does it. No test here activates a mutant: the switch is process-wide and the
/// suites run in parallel, so the benchmark script exercises each variant through `spotcheck-client` instead.
@Suite struct ClientMutantTests {
    static let catalogue: [[String]] = {
        // Tests/PetSpotClientTests/Unit/this file → the package root.
        let root = (0..<4).reduce(URL(fileURLWithPath: #filePath)) { url, _ in url.deletingLastPathComponent() }
        let file = root.appendingPathComponent("bench/mutants/catalogue.tsv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }()

    @Test func theCatalogueListsEveryVariantOnceWithItsClassAndSeedLine() {
        let names = Self.catalogue.map { $0[0] }
        #expect(names.count >= 50)
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(ClientMutant.allCases.map(\.rawValue)))
        for row in Self.catalogue {
            #expect(row.count == 5, "\(row[0]): name, class, seed line, variant, description")
            #expect(row.count > 3 && row[3] == (row[0].hasPrefix("sc-") ? "seed-correct" : "bug"), "\(row[0])")
            #expect(row.count > 2 && !row[2].isEmpty, "\(row[0]) cites a seed line")
        }
    }

    @Test func noVariantIsOnUnlessSpotcheckClientSwitchesOne() {
        #expect(ClientMutant.active == nil)
        #expect(MutantValidation.phone("+48 123 456 789") == nil)
        #expect(MutantValidation.email("owner@example.com") == nil)
        #expect(MutantValidation.rewardFits(String(repeating: "a", count: 121)) == nil)
        #expect(MutantValidation.typedReward(" a\tb ") == " a\tb ")
        #expect(MutantAPI.listQuery((latitude: 0, longitude: 0), 5).1 == 5)
        #expect(MutantAPI.listQuery((latitude: 0, longitude: 0), 5).0 != nil)
        let draft = ReportDraft(latitude: 0, longitude: -0.0)
        #expect(MutantBody.problems(draft).isEmpty)
    }

    @Test func theLeadingZerosHelperKeepsThePlusAndOneZero() {
        #expect(MutantBody.withoutLeadingZeros("+0048 600") == "+48 600")
        #expect(MutantBody.withoutLeadingZeros("000") == "0")
        #expect(MutantBody.withoutLeadingZeros("0981") == "981")
        #expect(MutantBody.withoutLeadingZeros("981") == "981")
    }
}
