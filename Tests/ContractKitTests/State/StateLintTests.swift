import Foundation
import Testing

@testable import ContractKit

/// `x-state` and `request.auth.x-errors` are linted like the rest of a contract: every problem names its file and pointer.
@Suite struct StateLintTests {
    /// The problems of the bundled folder after `edit` changed one file of a copy.
    private func problems(_ file: String, _ edit: (inout JSONValue) -> Void) throws -> [LintProblem] {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit(file, edit)
        return ContractSet.lint(directory: copy.url)
    }

    @Test func bothBundledFoldersCompileTheirDeclarations() throws {
        let old = try ContractSet.load(from: ContractSet.bundledDirectory)
        #expect(old.state.declaration(for: "createAnnouncement")?.action == .create)
        #expect(old.state.declaration(for: "uploadPhoto")?.file?.maxBytes == 20_971_520)
        #expect(old.state.auth["deleteAnnouncement"]?.answer(.missing)?.message == "Missing Authorization header")
        #expect(old.state.declaration(for: "registerUser") == nil)
        let new = try ContractSet.load(from: ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12"))
        #expect(new.state.declaration(for: "registerUser")?.keyTransform == .lowercase)
        #expect(new.state.declaration(for: "loginUser")?.credentials?.sent == .body("password"))
        #expect(new.state.auth["uploadPhoto"]?.answers.map(\.check) == [.missing, .format, .base64, .noColon, .empty])
    }

    @Test func anUnknownActionIsAProblemAtItsPointer() throws {
        let found = try problems("create-announcement.json") { $0.set("/x-state/action", "archive") }
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.file.hasSuffix("create-announcement.json"))
        #expect(problem.pointer == "/x-state/action")
        #expect(problem.message.contains("unknown action \"archive\""))
        #expect(problem.message.contains("attach-file"))
    }

    @Test func anUnknownGeneratorIsAProblemAtItsPointer() throws {
        let found = try problems("create-announcement.json") { $0.set("/x-state/generate/managementPassword", "digits-7") }
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.file.hasSuffix("create-announcement.json"))
        #expect(problem.pointer == "/x-state/generate/managementPassword")
        #expect(problem.message.contains("unknown generator \"digits-7\""))
    }

    @Test func anAnswerWithoutACodeIsAProblem() throws {
        let found = try problems("create-announcement.json") { $0.set("/x-state/unique/microchipNumber/code", nil) }
        #expect(found.map(\.pointer) == ["/x-state/unique/microchipNumber"])
        #expect(found.first?.message.contains("required key \"code\"") == true)
    }

    @Test func anAnswerTheContractDoesNotDocumentIsAProblem() throws {
        let found = try problems("upload-photo.json") { $0.set("/x-state/credentials/mismatch/status", 401) }
        #expect(found.map(\.pointer) == ["/x-state/credentials/mismatch"])
        #expect(found.first?.message.contains("401 UNAUTHORIZED is not among the contract's responses") == true)
    }

    @Test func anAuthCheckWithoutAnAnswerOrOutOfOrderIsAProblem() throws {
        let missing = try problems("upload-photo.json") { $0.set("/request/auth/x-errors/no-colon", nil) }
        #expect(missing.map(\.pointer) == ["/request/auth/x-errors"])
        #expect(missing.first?.message.contains("no answer for the basic check \"no-colon\"") == true)
        let unknown = try problems("delete-announcement.json") { $0.set("/request/auth/x-errors/expired", ["code": "UNAUTHENTICATED", "message": "x", "status": 401]) }
        #expect(unknown.map(\.pointer) == ["/request/auth/x-errors/expired"])
    }

    @Test func aFileRuleNeedsItsAnswerAndAKnownDetector() throws {
        let found = try problems("upload-photo.json") {
            $0.set("/x-state/file/detect", "pdf-type")
            $0.set("/x-state/file/x-errors/required", nil)
        }
        #expect(Set(found.map(\.pointer)) == ["/x-state/file/detect", "/x-state/file/x-errors"])
    }
}

@Suite struct DeclaredAnswerFillTests {
    @Test func placeholdersAreFilledInOnePass() {
        #expect(DeclaredAnswer.fill("Announcement with ID {id} not found", ["id": "42"]) == "Announcement with ID 42 not found")
        #expect(DeclaredAnswer.fill("/images/{id}.{ext}", ["id": "{ext}", "ext": "png"]) == "/images/{ext}.png")
        #expect(DeclaredAnswer.fill("{unknown} and {id", ["id": "x"]) == "{unknown} and {id")
    }
}
