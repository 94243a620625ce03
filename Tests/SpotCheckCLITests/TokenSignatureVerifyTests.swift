import ContractKit
import Foundation
import Testing

@testable import spotcheck

/// `verify` checks a token's header, claims and lifetime always, and its signature only when given the key the server
/// was deployed with (issue 42); its output says which it did. The server here is the faithful model signing with
/// its own key, as a real server signs with its `JWT_SECRET`.
@Suite(.serialized) struct TokenSignatureVerifyTests {
    typealias Bent = VerifyVerdictTests.BentServer
    static let newer = URL(fileURLWithPath: RunCommandTests.contracts).appendingPathComponent("versions/2026-01-12")
    static let serverKey = "the-servers-own-jwt-secret"

    static func verify(_ target: URL, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> (Int32, String) {
        let command = try VerifyCommand.parse(["--timeout", "120", "--contracts", newer.path, "--target", target.absoluteString, "--skip", "photo of 20 MiB",
                                               "--seed", "24", "--cases", "120", "--admin-token", "tajnehasloadmina"] + extra)
        let lines = RunCommandTests.Lines()
        let code = await command.execute(print: { lines.add($0) }, environment: environment)
        return (code, lines.text)
    }

    @Test func withoutTheKeyEverythingButTheSignatureIsCheckedAndTheRunSaysSo() async throws {
        let (code, output) = try await Bent.with(contracts: Self.newer, bend: { $1 }, tokenKey: Self.serverKey) { try await Self.verify($0) }
        #expect(code == 0, "\(output)")
        #expect(output.contains("token signatures: not checked (no key given: --secret token=VALUE or JWT_SECRET)"), "\(output)")
    }

    @Test func withTheRightKeyTheSignatureIsCheckedToo() async throws {
        let (code, output) = try await Bent.with(contracts: Self.newer, bend: { $1 }, tokenKey: Self.serverKey) {
            try await Self.verify($0, ["--secret", "token=\(Self.serverKey)"])
        }
        #expect(code == 0, "\(output)")
        #expect(output.contains("token signatures: checked (HMAC-SHA256 under the key from --secret token)"), "\(output)")
    }

    @Test func theVariableTheContractNamesGivesTheKey() async throws {
        let (code, output) = try await Bent.with(contracts: Self.newer, bend: { $1 }, tokenKey: Self.serverKey) {
            try await Self.verify($0, environment: ["JWT_SECRET": "not the server's key"])
        }
        #expect(code == 1, "\(output)")
        #expect(output.contains("from the environment variable JWT_SECRET"), "\(output)")
        #expect(output.contains("body /accessToken") && output.contains("signature under the given key"), "\(output)")
    }

    @Test func aBadSecretOptionIsExitTwoWithoutTheValue() async throws {
        let (code, output) = try await Self.verify(URL(string: "http://127.0.0.1:9")!, ["--secret", "jwt=hunter2"])
        #expect(code == 2)
        #expect(output.contains("--secret jwt=…: unknown secret name \"jwt\"; known: token"), "\(output)")
        #expect(!output.contains("hunter2"))
    }
}
