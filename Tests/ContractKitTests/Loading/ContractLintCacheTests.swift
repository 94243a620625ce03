import Foundation
import Testing
@testable import ContractKit

/// `serve` skips the lint of contracts this build already loaded lint-clean (issue 23); anything else lints in full.
@Suite struct ContractLintCacheTests {
    /// A cache in a fresh temporary folder, removed by the caller.
    static func temporaryCache() -> ContractLintCache {
        ContractLintCache(folder: FileManager.default.temporaryDirectory.appendingPathComponent("lint-cache-\(UUID().uuidString)"),
                          buildIdentity: "test build")
    }

    static func entries(_ cache: ContractLintCache) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: cache.folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasSuffix(".lint-clean") }
    }

    @Test func unchangedContractsAreNotLintedTwice() throws {
        let copy = try ContractsCopy()
        let cache = Self.temporaryCache()
        defer { copy.remove(); try? FileManager.default.removeItem(at: cache.folder) }

        let cold = try ContractSet.load(from: copy.url, cache: cache)
        #expect(!cold.lintSkipped)
        #expect(Self.entries(cache).count == 1)
        let warm = try ContractSet.load(from: copy.url, cache: cache)
        #expect(warm.lintSkipped)
        // The cached load builds the same contracts and request checks.
        #expect(warm.contracts.map(\.id) == cold.contracts.map(\.id))
        #expect(warm.contracts.map(\.pathTemplate) == cold.contracts.map(\.pathTemplate))
        #expect(warm.schemas == cold.schemas)
        #expect(Set(warm.requestChecks.keys) == Set(cold.requestChecks.keys))
        #expect(warm.knownDefects.count == cold.knownDefects.count)
        // Another build's entry does not count.
        let otherBuild = ContractLintCache(folder: cache.folder, buildIdentity: "another build")
        #expect(!(try ContractSet.load(from: copy.url, cache: otherBuild)).lintSkipped)
    }

    @Test func changedContractsAreLintedAgain() throws {
        let copy = try ContractsCopy()
        let cache = Self.temporaryCache()
        defer { copy.remove(); try? FileManager.default.removeItem(at: cache.folder) }
        _ = try ContractSet.load(from: copy.url, cache: cache)
        // A change the lint catches and decoding does not: an example that breaks its schema.
        try copy.edit("create-announcement.json") { contract in
            guard case .object(var object) = contract, case .array(var responses)? = object["responses"],
                  case .object(var first) = responses[0], case .array(var examples)? = first["examples"],
                  case .object(var example) = examples[0] else { return }
            example["body"] = .string("not an announcement")
            examples[0] = .object(example); first["examples"] = .array(examples); responses[0] = .object(first)
            object["responses"] = .array(responses); contract = .object(object)
        }
        #expect(throws: ContractLoadError.self) { try ContractSet.load(from: copy.url, cache: cache) }
        // A failed load vouches for nothing.
        #expect(Self.entries(cache).count == 1)
    }

    @Test func aDamagedEntryMeansAFullLoad() throws {
        let copy = try ContractsCopy()
        let cache = Self.temporaryCache()
        defer { copy.remove(); try? FileManager.default.removeItem(at: cache.folder) }
        _ = try ContractSet.load(from: copy.url, cache: cache)
        let entry = try #require(Self.entries(cache).first)
        for damage in [Data(), Data("spotcheck-lint-cache 1\ncontent".utf8), Data([0xFF, 0x00, 0x13])] {
            try damage.write(to: entry)
            #expect(!(try ContractSet.load(from: copy.url, cache: cache)).lintSkipped)
            // The full load wrote the entry again.
            #expect(try ContractSet.load(from: copy.url, cache: cache).lintSkipped)
        }
    }

    @Test func anUnwritableCacheOnlyCostsTheLint() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-folder-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let cache = ContractLintCache(folder: file, buildIdentity: "test build")
        #expect(!(try ContractSet.load(from: ContractSet.bundledDirectory, cache: cache)).lintSkipped)
        #expect(!(try ContractSet.load(from: ContractSet.bundledDirectory, cache: cache)).lintSkipped)
    }

    @Test func theStandardFolderFollowsTheEnvironment() {
        #expect(ContractLintCache.standard(environment: ["SPOTCHECK_CACHE_DIR": "off", "HOME": "/h"]) == nil)
        #expect(ContractLintCache.standard(environment: ["SPOTCHECK_CACHE_DIR": "/c", "HOME": "/h"])?.folder.path == "/c")
        #expect(ContractLintCache.standard(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.folder.path == "/x/spotcheck")
        #expect(ContractLintCache.standard(environment: ["HOME": "/h"])?.folder.path == "/h/.cache/spotcheck")
        #expect(ContractLintCache.standard(environment: [:]) == nil)
    }
}
