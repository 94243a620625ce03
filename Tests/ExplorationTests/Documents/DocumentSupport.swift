import ContractKit
import Foundation
import MockBackend

/// Team-style OpenAPI documents written to a fresh folder for one test, and mocks to verify them against.
enum DocumentSupport {
    /// The documents (`name: text`) loaded as one contract set; the folder is removed before returning.
    static func load(_ files: [(String, String)], basePath: String? = nil) throws -> ContractSet {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("documents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var urls: [URL] = []
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            urls.append(url)
        }
        return try ContractSet.load(documents: urls, basePath: basePath)
    }

    /// Runs `body` against a mock of the bundled contracts (on 127.0.0.1, an ephemeral port), shut down afterwards
    /// whatever `body` does; `reproduceKnownDefects` makes it answer the listed server defects (the body parser's 500s).
    static func withMock<T: Sendable>(reproduceKnownDefects: Bool = false, seed: UInt64? = nil, fixtures: URL? = nil,
                                      _ body: (URL) async throws -> T) async throws -> T {
        var options = ContractMock.Options(contracts: try ContractSet.load(from: ContractSet.bundledDirectory), quiet: true)
        options.reproduceKnownDefects = reproduceKnownDefects
        options.seed = seed
        options.fixtures = fixtures
        // The fixtures hold statuses outside the create schema on purpose; the mock's self-check would only log them.
        options.checkResponses = false
        let mock = try await ContractMock.start(options)
        do {
            let result = try await body(mock.baseURL)
            try await mock.shutdown()
            return result
        } catch {
            try? await mock.shutdown()
            throw error
        }
    }
}
