import Foundation
import Testing

@testable import ContractKit

/// A token's signing key is deployment configuration (issue 42): a contract names at most the variable the server reads
/// it from, and a run is given the value (`--secret token=VALUE` or that variable).
@Suite struct DeploymentSecretsTests {
    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    @Test func theNewerFolderNamesTheVariableAndNoKey() throws {
        let set = try ContractSet.load(from: Self.newer)
        let token = try #require(set.state.declaration(for: "registerUser")?.token)
        #expect(token.secret == nil)
        #expect(token.secretEnvironment == "JWT_SECRET")
        #expect(DeploymentSecrets.environmentNames(in: set) == ["JWT_SECRET"])
    }

    @Test func theOptionWinsOverTheVariable() throws {
        let set = try ContractSet.load(from: Self.newer)
        let given = try DeploymentSecrets.resolve(options: ["token=from-option"], contracts: set, environment: ["JWT_SECRET": "from-env"])
        #expect(given.token == "from-option")
        #expect(given.tokenSource == "--secret token")
        let fromEnvironment = try DeploymentSecrets.resolve(options: [], contracts: set, environment: ["JWT_SECRET": "from-env"])
        #expect(fromEnvironment.token == "from-env")
        #expect(fromEnvironment.tokenCheckLine(for: set)?.contains("checked (HMAC-SHA256 under the key from the environment variable JWT_SECRET)") == true)
        let none = try DeploymentSecrets.resolve(options: [], contracts: set, environment: ["JWT_SECRET": ""])
        #expect(none.token == nil)
        #expect(none.tokenCheckLine(for: set) == "token signatures: not checked (no key given: --secret token=VALUE or JWT_SECRET); header, claims and lifetime checked")
        // A folder that makes no token says nothing about signatures.
        #expect(none.tokenCheckLine(for: try ContractSet.load(from: ContractSet.bundledDirectory)) == nil)
    }

    @Test(arguments: [("token", "expected NAME=VALUE, e.g. token=my-jwt-secret"), ("jwt=abc", "unknown secret name \"jwt\"; known: token"), ("token=", "the value is empty")])
    func aBadOptionSaysWhatWasExpected(option: String, reason: String) throws {
        let set = try ContractSet.load(from: Self.newer)
        #expect(throws: DeploymentSecretError(option: option, reason: reason)) {
            try DeploymentSecrets.resolve(options: [option], contracts: set, environment: [:])
        }
        let twice = DeploymentSecretError(option: "token=b", reason: "token is given twice")
        #expect(throws: twice) { try DeploymentSecrets.resolve(options: ["token=a", "token=b"], contracts: set, environment: [:]) }
        // The description never repeats the value.
        #expect(twice.description == "--secret token=…: token is given twice")
    }

    @Test func aKeyWrittenInAContractIsAProblemAtItsPointer() throws {
        let copy = try ContractsCopy(from: Self.newer)
        defer { copy.remove() }
        try copy.edit("register-user.json") { $0.set("/x-state/token/secret", "written-down") }
        let found = ContractSet.lint(directory: copy.url)
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.file.hasSuffix("register-user.json"))
        #expect(problem.pointer == "/x-state/token/secret")
        #expect(problem.message.contains("deployment configuration, not a contract fact") && problem.message.contains("--secret token=VALUE"))
    }

    @Test func aVariableNameMustBeOne() throws {
        let copy = try ContractsCopy(from: Self.newer)
        defer { copy.remove() }
        try copy.edit("login-user.json") { $0.set("/x-state/token/secretEnvironment", "JWT SECRET") }
        let problem = try #require(ContractSet.lint(directory: copy.url).first)
        #expect(problem.pointer == "/x-state/token/secretEnvironment")
        #expect(problem.message.contains("got \"JWT SECRET\""))
    }
}
