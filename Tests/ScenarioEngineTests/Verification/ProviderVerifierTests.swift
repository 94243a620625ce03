import ContractKit
import Foundation
import ContractModel
import MockBackend
import Testing
@testable import ScenarioEngine

@Suite struct ProviderVerifierTests {
    static let contracts = Result { try ContractSet.load(from: ContractSet.bundledDirectory) }

    /// Whether a check uploads a 20 MiB photo: a debug build's multipart parser needs about 20 s of CPU for it, so
    /// only `twentyMiBPhotoIs413` sends it, and only when heavy tests are on (`.ci/run` runs them on their own).
    static func isTwentyMiBUpload(_ check: VerificationCheck) -> Bool {
        check.contractID == "uploadPhoto" && check.response.status == 413
    }

    /// Runs the plan (without the 20 MiB upload unless `only` selects it) against a fresh mock backend with `drift`.
    static func verify(drift: Set<ContractDrift> = [], only: ((VerificationCheck) -> Bool)? = nil) async throws -> ProviderVerifier.Outcome {
        let contracts = try Self.contracts.get()
        var options = ContractMock.Options(contracts: contracts, quiet: true)
        options.drift = drift
        let backend = try await ContractMock.start(options)
        var plan = VerificationPlanner.plan(for: contracts)
        if let only {
            // Keep what creates the announcement the selected checks need.
            plan = plan.filter { only($0) || $0.response.status == 201 && $0.contractID == "createAnnouncement" }
        } else {
            plan.removeAll(where: isTwentyMiBUpload)
        }
        let outcome = await ProviderVerifier(contracts: contracts, target: backend.baseURL, timeout: 120).verify(plan)
        try await backend.shutdown()
        return outcome
    }

    @Test(.heavy) func twentyMiBPhotoIs413() async throws {
        let outcome = try await Self.verify(only: Self.isTwentyMiBUpload)
        let check = try #require(outcome.report.results.first { $0.name == "uploadPhoto › photo of 20 MiB" })
        #expect(check.status == .passed, "\(check.failure?.message ?? "")")
    }

    static func failures(_ outcome: ProviderVerifier.Outcome) -> [String: [Mismatch]] {
        Dictionary(uniqueKeysWithValues: outcome.report.results.compactMap { r in
            r.status == .failed ? (r.name, r.failure?.mismatches ?? []) : nil
        })
    }

    @Test func faithfulMockBackendPassesEveryCheck() async throws {
        let outcome = try await Self.verify()
        let failed = outcome.report.results.filter { $0.status == .failed }
        #expect(failed.isEmpty, "\(failed.map { "\($0.name): \($0.failure?.message ?? "")" })")
        #expect(outcome.report.passed >= 25)
        // Every skip says why, and only unreachable answers are skipped.
        for skipped in outcome.report.results where skipped.status == .skipped {
            #expect(skipped.skipReason?.isEmpty == false)
            #expect(skipped.name.hasPrefix("deleteAnnouncement") || skipped.name.hasPrefix("adminDeleteAnnouncement")
                || skipped.name.hasSuffix("internal error") || skipped.name.hasSuffix("body parser failure"))
        }
        // One per documented 201 example of createAnnouncement.
        #expect(outcome.createdRecords.count == 5)
    }

    @Test func renamedManagementPasswordIsNamed() async throws {
        let failures = Self.failures(try await Self.verify(drift: [.renamedManagementPassword]))
        let create = try #require(failures["createAnnouncement › full report created"])
        #expect(create.contains { $0.subject == "body /managementPassword" })
        #expect(create.contains { $0.subject == "body /password" })
        // Without a password nothing can upload: the checks say so instead of guessing.
        let upload = try #require(failures["uploadPhoto › photo stored"])
        #expect(upload.first?.actual.contains("managementPassword") == true, "\(upload)")
    }

    @Test func photoUploadAnswering200IsNamed() async throws {
        let failures = Self.failures(try await Self.verify(drift: [.photoUploadAnswers200]))
        let upload = try #require(failures["uploadPhoto › photo stored"])
        #expect(upload.first == Mismatch("status", expected: "201", actual: "200 {}"))
        #expect(failures.count == 1, "\(failures)")
    }

    @Test func bearerReplacingBasicIsNamed() async throws {
        let failures = Self.failures(try await Self.verify(drift: [.bearerInsteadOfBasic]))
        let upload = try #require(failures["uploadPhoto › photo stored"])
        #expect(upload.first?.subject == "status")
        #expect(upload.first?.actual.hasPrefix("401") == true)
        #expect(upload.first?.actual.contains("UNAUTHENTICATED") == true)
        #expect(failures["uploadPhoto › wrong password"] != nil)
    }

    @Test func missingRequestIDIsNamedOnEveryAnswer() async throws {
        let outcome = try await Self.verify(drift: [.missingRequestID])
        let failures = Self.failures(outcome)
        // The JSON body parser's answers come before the request id: their contracts do not require the header.
        let contracts = try Self.contracts.get()
        let headerOptional = Set(contracts.contracts.flatMap { c in
            c.responses.filter { $0.headers.first { $0.name == "request-id" }?.required == false }.flatMap { r in r.examples.map { "\(c.id) › \($0.name)" } }
        })
        let ran = outcome.report.results.filter { $0.status != .skipped && !$0.name.hasPrefix("getImage") && !headerOptional.contains($0.name) }
        #expect(!ran.isEmpty)
        for result in ran {
            #expect(failures[result.name]?.contains(Mismatch("header request-id", expected: "present (required on every answer)", actual: "missing")) == true,
                    "\(result.name): \(failures[result.name] ?? [])")
        }
    }

    @Test func serverErrorOnUnknownFieldsIsNamed() async throws {
        let failures = Self.failures(try await Self.verify(drift: [.serverErrorOnUnknownFields]))
        let check = try #require(failures["createAnnouncement › server-owned id sent"])
        #expect(check.first?.subject == "status")
        #expect(check.first?.expected == "400 INVALID_FIELD")
        #expect(check.first?.actual.hasPrefix("500") == true)
        #expect(failures.count == 1, "\(failures)")
    }

    @Test func planSendsCreationFirstAndNegativesLast() throws {
        let plan = VerificationPlanner.plan(for: try Self.contracts.get())
        #expect(plan.first?.contractID == "createAnnouncement")
        let firstNegative = try #require(plan.firstIndex { $0.response.status >= 400 })
        // Only a successful DELETE may follow the negatives: it removes the announcement they need.
        #expect(plan[firstNegative...].allSatisfy { $0.response.status >= 400 || $0.recipe.method == "DELETE" })
        #expect(plan.last?.recipe.method == "DELETE")
        // The same DELETE is documented under both mounts; the flow's one announcement is deleted once, by the first.
        let admin = VerificationPlanner.plan(for: try Self.contracts.get(), adminChecks: true).filter { $0.recipe.method == "DELETE" && $0.response.status == 204 }
        #expect(admin.map(\.name) == ["deleteAnnouncement › deleted", "adminDeleteAnnouncement › deleted through the admin mount"])
        #expect(admin.first?.skipReason == nil)
        #expect(admin.last?.skipReason == "the one record the flow creates is removed by deleteAnnouncement › deleted already")
        let upload = try #require(plan.firstIndex { $0.name == "uploadPhoto › photo stored" })
        let before = try #require(plan.firstIndex { $0.name == "getAnnouncement › before photo upload" })
        let after = try #require(plan.firstIndex { $0.name == "getAnnouncement › with photo" })
        #expect(before < upload && upload < after)
        #expect(VerificationPlanner.describe(plan).contains("uploadPhoto › photo of 20 MiB: POST /api/v1/announcements/{id}/photos → 413 PAYLOAD_TOO_LARGE"))
    }
}
