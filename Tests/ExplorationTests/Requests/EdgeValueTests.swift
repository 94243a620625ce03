import ContractKit
import Foundation
import ContractModel
import MockBackend
import NIOCore
import NIOHTTP1
import Testing
@testable import Exploration

/// Servers that differ from the model only at edge values, each in one way: numbers stored with fewer decimals, text
/// cut at a storage limit, text normalized to NFC, credentials trimmed, preflights not answered. A default exploration
/// finds each, and nothing else.
@Suite struct EdgeValueTests {
    /// Every string member of an announcement-shaped answer (the object itself, or each of `data`) changed by `change`.
    static func storedText(_ response: MockResponse, _ change: @escaping @Sendable (String) -> String) -> MockResponse {
        ChangedServer.rewrite(response) { body in
            func apply(_ value: JSONValue) -> JSONValue {
                guard var object = value.objectValue, object["id"] != nil else { return value }
                for (name, member) in object where name != "id" {
                    if let text = member.stringValue { object[name] = .string(change(text)) }
                }
                return .object(object)
            }
            if let items = body["data"]?.arrayValue, var object = body.objectValue {
                object["data"] = .array(items.map(apply))
                return .object(object)
            }
            return apply(body)
        }
    }

    static func isAnnouncementAnswer(_ request: MockRequest) -> Bool {
        request.path.hasPrefix("/api/v1/announcements") && !request.path.contains("/photos") && request.method != .DELETE
    }

    @Test func numbersStoredWithSixDecimalsAreFound() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: { request, response in
            guard Self.isAnnouncementAnswer(request) else { return response }
            return ChangedServer.rewrite(response) { body in
                guard var object = body.objectValue, object["id"] != nil else { return body }
                for name in ["locationLatitude", "locationLongitude"] {
                    if let number = object[name]?.numberValue { object[name] = .number((number * 1e6).rounded() / 1e6) }
                }
                return .object(object)
            }
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { $0.differences.allSatisfy { $0.aspect.hasSuffix("/locationLatitude") || $0.aspect.hasSuffix("/locationLongitude") } },
                "\(failing.map(\.headline))")
    }

    @Test func textCutAtTheTextColumnsLimitIsFound() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: { request, response in
            guard Self.isAnnouncementAnswer(request) else { return response }
            return Self.storedText(response) { text in text.utf8.count > 65_535 ? String(decoding: Array(text.utf8.prefix(65_535)), as: UTF8.self) : text }
        })
        // The body-size cases reach past this limit too; every difference is stored text that came back cut.
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { $0.differences.allSatisfy { $0.aspect.contains("body /") && $0.model.count > $0.server.count } },
                "\(failing.map(\.headline))")
    }

    @Test func textStoredAsNFCIsFound() async throws {
        let outcome = try await RequestExplorerTests.explore(bend: { request, response in
            guard Self.isAnnouncementAnswer(request) else { return response }
            return Self.storedText(response) { $0.precomposedStringWithCanonicalMapping }
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        // Each difference is a combining mark the model kept and the server folded into its letter.
        #expect(failing.allSatisfy { $0.differences.allSatisfy { $0.model.contains("\\u{3") } }, "\(failing.map(\.headline))")
    }

    @Test func aPasswordTrimmedBeforeItIsComparedIsFound() async throws {
        let outcome = try await RequestExplorerTests.explore(rewrite: { request in
            guard request.method == .POST, request.path.hasSuffix("/photos"), let header = request.headers.first(name: "Authorization"),
                header.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6))),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else { return request }
            var request = request
            let trimmed = String(pair[..<colon]) + ":" + pair[pair.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            request.headers.replaceOrAdd(name: "Authorization", value: "Basic " + Data(trimmed.utf8).base64EncodedString())
            return request
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { $0.rule.contains("password with spaces around it") && $0.server.hasPrefix("201") }, "\(failing.map(\.headline))")
    }

    @Test func aRouteThatAnswersNoPreflightIsFound() async throws {
        let outcome = try await RequestExplorerTests.explore(intercept: { request in
            guard request.method == .OPTIONS, request.path.hasSuffix("/photos") else { return nil }
            return ChangedServer.error("NOT_FOUND", field: nil, message: "Route not found", status: .notFound)
        })
        let failing = RequestExplorerTests.failing(outcome)
        #expect(!failing.isEmpty)
        #expect(failing.allSatisfy { $0.rule.contains("CORS preflight") && $0.server.hasPrefix("404") }, "\(failing.map(\.headline))")
    }

    @Test func edgeValuesAreGeneratedForEveryKind() throws {
        let generator = RequestGenerator(contracts: try RequestExplorerTests.contracts.get(), adminChecks: true)
        let labels = generator.systematicCases().map(\.label)
        for expected in ["1e-7", "1e+21", "-0", "2^53 + 1", "more decimals than a double holds", "65535 characters", "NFD text",
                         "an emoji ZWJ sequence", "full-width digits", "bidi override marks", "an escaped lone high surrogate",
                         "its id in upper case", "its password and 100 more digits", "from a browser page at null", "a CORS preflight for POST"] {
            #expect(labels.contains { $0.contains(expected) }, "no case labelled \(expected)")
        }
    }
}
