import ContractKit
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend
@testable import spotcheck

/// Servers that differ from the faithful backend in one generated value or one stated header, and in nothing else, are
/// caught by a default `verify` run (examples and exploration): each generator's checker and the service file's headers.
@Suite(.serialized) struct GeneratedValueVerifyTests {
    typealias Bent = VerifyVerdictTests.BentServer
    static let seeds = URL(fileURLWithPath: RunCommandTests.contracts)
    static let newer = seeds.appendingPathComponent("versions/2026-01-12")

    static func verify(_ contracts: URL, _ target: URL) async throws -> (Int32, String) {
        try await VerifyVerdictTests.verify(contracts: contracts.path, target: target)
    }

    @Test(arguments: [seeds, newer])
    func theFaithfulDoubleIsClean(contracts: URL) async throws {
        let (code, output) = try await Bent.with(contracts: contracts, bend: { $1 }) { try await Self.verify(contracts, $0) }
        #expect(code == 0, "\(output)")
    }

    // MARK: uuid-v4

    /// Every UUID in `text` whose version nibble is `from` gets `to` instead.
    static func renibble(_ text: String, from: Character, to: Character) -> String {
        var result = text
        var searchFrom = result.startIndex
        while let range = result.range(of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", options: .regularExpression,
                                       range: searchFrom..<result.endIndex) {
            let nibble = result.index(range.lowerBound, offsetBy: 14)
            if result[nibble] == from { result.replaceSubrange(nibble...nibble, with: String(to)) }
            searchFrom = range.upperBound
        }
        return result
    }

    @Test func idsThatAreNotVersion4Fail() async throws {
        // The server hands out version 1 ids (and reads them back): every id it answers has the version nibble 1.
        let (code, output) = try await Bent.with(contracts: Self.seeds, bend: { _, response in
            DriftResponder.rewriteJSON(response) { body in Self.mapStrings(body, keys: ["id", "photoUrl"]) { Self.renibble($0, from: "4", to: "1") } }
        }, unbend: { request in
            var request = request
            request.uri = Self.renibble(request.uri, from: "1", to: "4")
            return request
        }) { try await Self.verify(Self.seeds, $0) }
        #expect(code == 1, "\(output)")
        #expect(output.contains("body /id") && output.contains("version 4 UUID"), "\(output)")
    }

    /// `value` with `transform` applied to every string member named in `keys`, at any depth.
    static func mapStrings(_ value: JSONValue, keys: Set<String>, _ transform: (String) -> String) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (name, member) in object {
                if keys.contains(name), let text = member.stringValue {
                    result[name] = .string(transform(text))
                } else {
                    result[name] = mapStrings(member, keys: keys, transform)
                }
            }
            return .object(result)
        case .array(let items):
            return .array(items.map { mapStrings($0, keys: keys, transform) })
        default:
            return value
        }
    }

    // MARK: digits-6

    @Test func aSevenDigitPasswordFails() async throws {
        // The server answers a seven-digit password and accepts it back (it stores the six, checks the first six).
        let (code, output) = try await Bent.with(contracts: Self.seeds, bend: { request, response in
            guard request.method == .POST, response.status == .created else { return response }
            return DriftResponder.rewriteJSON(response) { body in Self.mapStrings(body, keys: ["managementPassword"]) { $0 + "7" } }
        }, unbend: { request in
            var request = request
            guard let value = request.headers.first(name: "Authorization"), value.hasPrefix("Basic "),
                  let decoded = Data(base64Encoded: String(value.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                  let colon = decoded.firstIndex(of: ":") else { return request }
            let password = decoded[decoded.index(after: colon)...]
            guard password.count == 7, password.allSatisfy(\.isNumber) else { return request }
            let six = decoded[..<colon] + ":" + password.dropLast()
            request.headers.replaceOrAdd(name: "Authorization", value: "Basic " + Data(six.utf8).base64EncodedString())
            return request
        }) { try await Self.verify(Self.seeds, $0) }
        #expect(code == 1, "\(output)")
        // The schema's own pattern names it first (the digits-6 checker does not repeat a pointer already reported).
        #expect(output.contains("managementPassword") && (output.contains("6 digits") || output.contains("^[0-9]{6}$")), "\(output)")
    }

    // MARK: now-iso-ms

    @Test func aCreatedAtFarFromTheAnswersTimeFails() async throws {
        // The server's timestamps run three hours behind (a time zone mistake); everything else is the faithful backend's.
        let shift = { @Sendable (text: String) -> String in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text).map { formatter.string(from: $0.addingTimeInterval(-3 * 3600)) } ?? text
        }
        #expect(shift("2026-01-12T12:00:00.000Z") == "2026-01-12T09:00:00.000Z")
        let (code, output) = try await Bent.with(contracts: Self.seeds, bend: { _, response in
            DriftResponder.rewriteJSON(response) { body in Self.mapStrings(body, keys: ["createdAt", "updatedAt"], shift) }
        }) { try await Self.verify(Self.seeds, $0) }
        #expect(code == 1, "\(output)")
        #expect(output.contains("body /createdAt") && output.contains("3 h 0 min earlier"), "\(output)")
    }

    // MARK: jwt-hs256

    /// The token re-made with `lifetime` seconds or under `secret`: the one change of each JWT double.
    static func remade(_ token: String, lifetime: Int? = nil, secret: String = "spotcheck-mock-jwt-secret") -> String {
        let parts = token.split(separator: ".").map(String.init)
        guard parts.count == 3, let bytes = base64URLDecoded(parts[1]), var claims = (try? JSONValue(parsing: Data(bytes)))?.objectValue,
              let iat = claims["iat"]?.intValue else { return token }
        if let lifetime { claims["exp"] = .number(Double(iat + lifetime)) }
        let signed = parts[0] + "." + base64URL(JSONValue.object(claims).serializedBytes())
        return signed + "." + base64URL(HMACSHA256.mac(key: Array(secret.utf8), message: Array(signed.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }

    @Test(arguments: [("lifetime", 7200, "spotcheck-mock-jwt-secret", "exp - iat = 3600"),
                      ("signature", nil, "the server's own JWT_SECRET", "signature under the given key (--secret token)")])
    func aTokenWithAnotherLifetimeOrSignatureFails(change: String, lifetime: Int?, secret: String, expected: String) async throws {
        // verify is given the key the faithful server signs with; the bent one re-signs under `secret`.
        let (code, output) = try await Bent.with(contracts: Self.newer, bend: { _, response in
            guard (200..<300).contains(response.status.code) else { return response }
            return DriftResponder.rewriteJSON(response) { body in
                Self.mapStrings(body, keys: ["accessToken"]) { Self.remade($0, lifetime: lifetime, secret: secret) }
            }
        }, tokenKey: "spotcheck-mock-jwt-secret") {
            try await VerifyVerdictTests.verify(contracts: Self.newer.path, target: $0, ["--secret", "token=spotcheck-mock-jwt-secret"])
        }
        #expect(code == 1, "\(change): \(output)")
        #expect(output.contains("body /accessToken") && output.contains(expected), "\(change): \(output)")
    }

    // MARK: the service file's headers

    @Test(arguments: [seeds, newer])
    func aChangedAccessControlAllowOriginFails(contracts: URL) async throws {
        let (code, output) = try await Bent.with(contracts: contracts, bend: { _, response in
            var response = response
            if response.headers.contains(name: "Access-Control-Allow-Origin") {
                response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: "https://petspot.example")
            }
            return response
        }) { try await Self.verify(contracts, $0) }
        #expect(code == 1, "\(output)")
        #expect(output.contains("Access-Control-Allow-Origin") && output.contains("https://petspot.example"), "\(output)")
    }

    @Test func aHeaderTheServerAddsStaysInformational() async throws {
        let (code, output) = try await Bent.with(contracts: Self.seeds, bend: { _, response in
            var response = response
            response.headers.add(name: "X-Served-By", value: "edge-7")
            return response
        }) { try await Self.verify(Self.seeds, $0) }
        #expect(code == 0, "\(output)")
        #expect(output.contains("the server sends x-served-by, the model does not"), "\(output)")
    }
}
