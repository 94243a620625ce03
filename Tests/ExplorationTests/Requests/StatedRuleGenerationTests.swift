import ContractKit
import Foundation
@testable import ContractModel
@testable import MockBackend
import Testing
@testable import Exploration

/// The generator reads every rule a contracts folder states (JSON Schema keywords and issue 27's `x-…` keywords) and
/// generates boundary cases for each; the coverage listing names each rule with the cases that exercised it.
@Suite struct StatedRuleGenerationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stated-rules")
    static let today = "2026-11-25"

    static func generator(adminChecks: Bool = true) throws -> RequestGenerator {
        RequestGenerator(contracts: try ContractSet.load(from: fixture), adminChecks: adminChecks, today: today)
    }

    static func rule(_ contract: String, _ location: String, _ keyword: String) -> String {
        StatedRule.id(contract, location, keyword)
    }

    /// The fixture's JSON read directly, so the expectations do not come from the code under test.
    static func json(_ file: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: fixture.appendingPathComponent(file)))
    }

    @Test func theFixtureFolderLoadsAndItsRulesAreListedInFileOrder() throws {
        let rules = try Self.generator().statedRules.map(\.id)
        let name = "/request/body/properties/name"
        for expected in [
            Self.rule("createPet", name, "type"), Self.rule("createPet", name, "minLength"), Self.rule("createPet", name, "maxLength"),
            Self.rule("createPet", name, "x-trim"), Self.rule("createPet", name, "x-stored"),
            Self.rule("createPet", "/request/body/properties/seen", "x-check"), Self.rule("createPet", "/request/body/properties/kind", "required"),
            Self.rule("createPet", "/request/body/properties/note", "x-sanitize"), Self.rule("createPet", "/request/body/properties/note", "x-empty-as-null"),
            Self.rule("createPet", "/request/body", "undefined"), Self.rule("createPet", "/request/body", "additionalProperties"),
            Self.rule("createPet", "/request", "maxBodyBytes"), Self.rule("createPet", "/x-state/unique/chip", "unique"),
            Self.rule("listPets", "/request/query/lat", "x-parse"), Self.rule("listPets", "/request/query/lat", "x-requires"),
            Self.rule("listPets", "/request/query/range", "default"), Self.rule("listPets", "/x-state", "filter"), Self.rule("listPets", "/x-state", "where"),
            Self.rule("uploadPetPhoto", "/request/auth", "no-colon"), Self.rule("uploadPetPhoto", "/request/auth", "base64"),
            Self.rule("uploadPetPhoto", "/request", "maxFileBytes"), Self.rule("uploadPetPhoto", "/request", "maxBodyBytes"),
            Self.rule("uploadPetPhoto", "/request/parts/photo", "required"), Self.rule("uploadPetPhoto", "/x-state/file", "malformed"),
            Self.rule("uploadPetPhoto", "/x-state/file", "detect"), Self.rule("uploadPetPhoto", "/x-state", "notFound"),
            Self.rule("uploadPetPhoto", "/x-state/credentials", "mismatch"), Self.rule("getPet", "/x-state", "notFound"),
            Self.rule("getPetImage", "/x-state", "notFound"), Self.rule("createPet", "/x-state", "secret"),
            Self.rule("deletePet", "/request/auth", "missing"), Self.rule("deletePet", "/request/auth", "mismatch"),
            Self.rule("deletePet", "/x-state", "notFound"),
        ] {
            #expect(rules.contains(expected), "\(expected) is not listed")
        }
        // A file rule whose limit or requirement the request states is listed once, where the request states it.
        for duplicate in [Self.rule("uploadPetPhoto", "/x-state/file", "maxFileBytes"), Self.rule("uploadPetPhoto", "/x-state/file", "required")] {
            #expect(!rules.contains(duplicate), "\(duplicate) is listed twice")
        }
        #expect(Set(rules).count == rules.count)
        // The x-errors order is the check order: it is kept.
        let seen = rules.filter { $0.hasPrefix("createPet /request/body/properties/seen ") }.map { String($0.split(separator: " ").last ?? "") }
        #expect(seen.prefix(4) == ["required", "type", "pattern", "x-check"], "\(seen)")
    }

    @Test func aNewMaxLengthGetsCasesJustUnderAndJustOverInUTF16Units() throws {
        let cases = try Self.generator().systematicCases().filter { $0.contractID == "createPet" }
        let maxLength = Self.rule("createPet", "/request/body/properties/name", "maxLength")
        func name(_ request: GeneratedRequest) -> String? {
            guard case .json(let body) = request.body else { return nil }
            return body["name"]?.stringValue
        }
        let sent = Set(cases.compactMap(name))
        let breaking = Set(cases.filter { $0.exercises.contains(maxLength) }.compactMap(name))
        let a = { (count: Int) in String(repeating: "a", count: count) }
        // Just under, on and just over 12, plainly, with a character outside the BMP, and padded (x-trim).
        let under = [a(11), a(12), a(10) + "🐶", "  " + a(12) + "  "]
        let over = [a(13), a(11) + "🐶", "  " + a(13) + "  "]
        #expect(sent.isSuperset(of: under + over), "\(sent.sorted())")
        // Only the ones over the limit as JavaScript counts (UTF-16 units, after trimming) exercise it.
        #expect(breaking.isSuperset(of: over), "\(breaking.sorted())")
        #expect(breaking.isDisjoint(with: under), "\(breaking.sorted())")
        #expect(!breaking.contains("Rex"))
        // The x-trim rule counts the padded values, whichever side of the limit.
        let trim = Set(cases.filter { $0.exercises.contains(Self.rule("createPet", "/request/body/properties/name", "x-trim")) }.compactMap(name))
        #expect(trim.isSuperset(of: ["  " + a(12) + "  ", "  " + a(13) + "  "]))
    }

    @Test func everyXErrorsKeyGetsACaseExceptTheUnreachableOne() throws {
        let cases = try Self.generator().systematicCases()
        let tagged = Set(cases.flatMap(\.exercises))
        var expected: [String] = []
        let body = try Self.json("schemas/CreatePet.json")
        for (name, property) in body["properties"]?.objectValue ?? JSONObject() {
            for key in property["x-errors"]?.objectValue?.keys ?? [] { expected.append(Self.rule("createPet", "/request/body/properties/\(name)", key)) }
        }
        for key in body["x-errors"]?.objectValue?.keys ?? [] { expected.append(Self.rule("createPet", "/request/body", key)) }
        for key in try Self.json("list-pets.json")["request"]?["query"]?["lat"]?["x-errors"]?.objectValue?.keys ?? [] {
            expected.append(Self.rule("listPets", "/request/query/lat", key))
        }
        for (file, id) in [("upload-pet-photo.json", "uploadPetPhoto"), ("delete-pet.json", "deletePet")] {
            for key in try Self.json(file)["request"]?["auth"]?["x-errors"]?.objectValue?.keys ?? [] { expected.append(Self.rule(id, "/request/auth", key)) }
        }
        // The upload's file rules: the size limit and the part's requirement are stated in `request`, the rest in x-state.
        let upload = try Self.json("upload-pet-photo.json")
        for key in upload["x-state"]?["file"]?["x-errors"]?.objectValue?.keys ?? [] {
            switch key {
            case "maxFileBytes": expected.append(Self.rule("uploadPetPhoto", "/request", key))
            case "required": expected.append(Self.rule("uploadPetPhoto", "/request/parts/photo", key))
            default: expected.append(Self.rule("uploadPetPhoto", "/x-state/file", key))
            }
        }
        #expect(upload["x-state"]?["credentials"]?["mismatch"] != nil)
        expected += [Self.rule("uploadPetPhoto", "/x-state/credentials", "mismatch"), Self.rule("uploadPetPhoto", "/x-state", "notFound"),
                     Self.rule("getPet", "/x-state", "notFound"), Self.rule("getPetImage", "/x-state", "notFound"),
                     Self.rule("createPet", "/x-state/unique/chip", "unique"), Self.rule("createPet", "/x-state", "secret")]
        expected.append(Self.rule("deletePet", "/x-state", "notFound"))
        let unreachable = Self.rule("createPet", "/request/body/properties/tag", "minLength")
        #expect(expected.count > 20)
        for rule in expected where rule != unreachable {
            #expect(tagged.contains(rule), "no case for \(rule)")
        }
        #expect(!tagged.contains(unreachable))
    }

    @Test func theCoverageListsTheUnreachableRuleAsNotExercised() throws {
        let generator = try Self.generator()
        let coverage = RuleCoverage.listing(generator.statedRules, cases: generator.systematicCases())
        let unreachable = Self.rule("createPet", "/request/body/properties/tag", "minLength")
        #expect(coverage.first { $0.rule.id == unreachable }?.cases == 0)
        #expect((coverage.first { $0.rule.id == Self.rule("createPet", "/request/body/properties/name", "maxLength") }?.cases ?? 0) >= 5)
        var outcome = ExplorationOutcome(seed: 7, casesSent: 10, systematicCases: 10, shrinkRequests: 0, groups: [], headersAdded: [], headersRemoved: [],
                                         createdOnServer: [], deletedOnServer: [], notDeleted: [], setupFailure: nil, duration: .zero)
        outcome.coverage = coverage
        #expect(outcome.notExercised.map(\.id).contains(unreachable))
        let console = ExplorationResults.consoleLines(outcome, strictHeaders: false)
        #expect(console.contains("    not exercised: \(unreachable)"), "\(console)")
        #expect(console.contains { $0.contains("explored with seed 7") })
        let results = ExplorationResults.results(outcome, strictHeaders: false)
        let listing = try #require(results.first { $0.name == "explore › stated rules" })
        #expect(listing.status == .passed)
        #expect(listing.notes.contains("not exercised: \(unreachable)"))
        #expect(listing.notes.contains { $0.hasPrefix(Self.rule("createPet", "/request/body/properties/name", "maxLength") + ": ") })
    }

    @Test func datesStraddleTheTodayBound() throws {
        let cases = try Self.generator().systematicCases().filter { $0.contractID == "createPet" }
        func seen(_ request: GeneratedRequest) -> String? {
            guard case .json(let body) = request.body else { return nil }
            return body["seen"]?.stringValue
        }
        let check = Self.rule("createPet", "/request/body/properties/seen", "x-check")
        let sent = Set(cases.compactMap(seen))
        let breaking = Set(cases.filter { $0.exercises.contains(check) }.compactMap(seen))
        #expect(sent.isSuperset(of: ["2026-11-24", "2026-11-25", "2026-11-26", " 2026-11-26 "]), "\(sent.sorted())")
        #expect(breaking.isSuperset(of: ["2026-11-26", " 2026-11-26 "]), "\(breaking.sorted())")
        #expect(breaking.isDisjoint(with: ["2026-11-24", "2026-11-25", "2025-11-17"]), "\(breaking.sorted())")
    }

    @Test func listFiltersAreJustInsideAndJustOutsideEveryRadiusTheDefaultIncluded() throws {
        let cases = try Self.generator().systematicCases().filter { $0.exercises.contains(Self.rule("listPets", "/x-state", "filter")) }
        // The richest example stands at 52.2297, 21.0122; the stated default radius is 7 km, the minimum 1 km.
        for (label, radius, inside) in [("the default radius of 7 km", 7.0, true), ("the default radius of 7 km", 7.0, false),
                                        ("the radius of 1 km", 1.0, true), ("the radius of 1 km", 1.0, false), ("the radius of 70 km", 70.0, false)] {
            let side = inside ? "just inside" : "just outside"
            let request = try #require(cases.first { $0.label == "a centre \(side) \(label)" }, "\(side) \(label): \(cases.map(\.label))")
            let latitude = try #require(request.query.first { $0.name == "lat" }.flatMap { Double($0.value) })
            let longitude = try #require(request.query.first { $0.name == "lng" }.flatMap { Double($0.value) })
            let distance = GreatCircle.distanceKm(latitude1: latitude, longitude1: longitude, latitude2: 52.2297, longitude2: 21.0122)
            #expect(inside ? distance < radius && distance > radius - 0.1 : distance > radius && distance < radius + 0.1, "\(request.label): \(distance)")
            #expect(label.contains("default") == !request.query.contains { $0.name == "range" })
        }
        // Before them, a photo for each slot so the list holds several of the run's announcements.
        let all = try Self.generator().systematicCases()
        let photos = all.indices.filter { all[$0].label.hasPrefix("a photo for the run's record") }
        let firstFilter = try #require(all.firstIndex { $0.label.hasPrefix("a centre just") })
        #expect(photos.count == RequestGenerator.slots && photos.allSatisfy { $0 < firstFilter })
        #expect(all.contains { $0.label == "the list with several of the run's records" })
    }

    @Test func photosAreSentOnBothSidesOfEveryStatedLimitAndBetweenThem() throws {
        let cases = try Self.generator().systematicCases().filter { $0.contractID == "uploadPetPhoto" }
        let sizes = Set(cases.compactMap { request -> Int? in
            guard case .multipart(let parts) = request.body, request.label.hasPrefix("a PNG of") else { return nil }
            return parts.first?.data.count
        })
        #expect(sizes == [1023, 1024, 1025, 2560, 4095, 4096, 4097], "\(sizes.sorted())")
        #expect(cases.filter { $0.label.hasPrefix("a PNG of") }.allSatisfy { !$0.then.isEmpty }, "each upload is read back")
    }

    @Test func eachAuthCaseMeetsEachKindOfIdAndDeletesAreReadBack() throws {
        let cases = try Self.generator().systematicCases()
        let uploads = cases.filter { $0.contractID == "uploadPetPhoto" && $0.method == "POST" && $0.body != .none }
        for id in ["{slot0}", "{slot1}", "{unknown}", "not-a-uuid"] {
            #expect(uploads.contains { $0.path == "/api/v1/pets/\(id)/photos" && $0.credentials == .none })
            #expect(uploads.contains { $0.path == "/api/v1/pets/\(id)/photos" && $0.label.hasPrefix("no colon") })
        }
        let delete = try #require(cases.first { $0.contractID == "deletePet" && $0.credentials == .adminToken && $0.path == "/api/v1/pets/{slot2}" })
        #expect(delete.then.map(\.path) == ["/api/v1/pets/{slot2}", "/images/{slot2}.png", "/api/v1/pets"])
        // Without the admin token, the run's announcement is never deleted.
        #expect(!(try Self.generator(adminChecks: false).systematicCases()).contains { $0.credentials == .adminToken })
    }

    @Test func theGeneratorIsReproducible() throws {
        let generator = try Self.generator()
        #expect(generator.systematicCases() == generator.systematicCases())
        var first = ModelRandom(seed: 3)
        var second = ModelRandom(seed: 3)
        #expect((0..<20).map { _ in generator.randomCase(using: &first) } == (0..<20).map { _ in generator.randomCase(using: &second) })
    }

    @Test func aTimestampInAnotherFormatIsADifference() {
        let comparison = AnswerComparison()
        func answer(_ createdAt: String) -> ExactHTTPClient.Answer {
            ExactHTTPClient.Answer(status: 201, headers: [], body: Data("{\"createdAt\":\"\(createdAt)\"}".utf8))
        }
        #expect(comparison.differences(model: answer("2025-11-19T10:00:00.000Z"), server: answer("2026-01-02T03:04:05.678Z")).isEmpty)
        let seconds = comparison.differences(model: answer("2025-11-19T10:00:00.000Z"), server: answer("2025-11-19T10:00:00Z"))
        #expect(seconds.map(\.aspect) == ["body /createdAt"])
        #expect(!comparison.differences(model: answer("2025-11-19T10:00:00.000Z"), server: answer("2025-11-19T10:00:00.000+00:00")).isEmpty)
    }

    @Test func aRecordsIdInsideATextIsLabelledWhereverItStands() {
        var comparison = AnswerComparison()
        let serverID = "0f66cab3-2833-4e5e-8f0d-054d470cb669", modelID = "a2161b4e-09d8-433a-b2d6-060bde7a58a5"
        comparison.labels[serverID] = "<announcement 1>"
        comparison.labels[modelID] = "<announcement 1>"
        func answer(_ message: String) -> ExactHTTPClient.Answer {
            ExactHTTPClient.Answer(status: 404, headers: [], body: Data("{\"message\":\"\(message)\"}".utf8))
        }
        let long = String(repeating: "é", count: 40_000)
        #expect(comparison.differences(model: answer("no \(modelID) here"), server: answer("no \(serverID) here")).isEmpty)
        #expect(comparison.differences(model: answer(long + modelID), server: answer(long + serverID)).isEmpty)
        // An id the run never labelled is compared by its form only, a mangled one is not an id at all.
        #expect(!comparison.differences(model: answer("no \(modelID) here"), server: answer("no \(serverID.dropLast()) here")).isEmpty)
    }

    @Test func theLabelTableFindsEachLongLabelWhereverItStandsAndForgetsARemovedOne() {
        var table = AnswerComparison.LabelTable()
        table["abcdefgh"] = "<a>"
        table["abcdefghij"] = "<longer>"
        table["ñandú-ñandú"] = "<bird>"
        table["123456"] = "<password>"
        // At the start, in the middle, at the end; the longer label first, so it is replaced before the one inside it.
        #expect(table.held(in: "abcdefghij").map(\.label) == ["<longer>", "<a>"])
        #expect(table.held(in: "x abcdefgh y").map(\.label) == ["<a>"])
        #expect(table.held(in: "the ñandú-ñandú").map(\.label) == ["<bird>"])
        #expect(table.held(in: "abcdefg").isEmpty, "a label cut short is not held")
        // A six-digit value is looked up whole only: inside a text it would match unrelated numbers.
        #expect(table["123456"] == "<password>" && table.held(in: "x123456789").isEmpty)
        table["abcdefgh"] = nil
        #expect(table["abcdefgh"] == nil && table.held(in: "x abcdefgh y").isEmpty)
    }

    @Test func theBundledContractsStillGenerateAndReportTheirCoverage() throws {
        for folder in [ContractSet.bundledDirectory, ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")] {
            let generator = RequestGenerator(contracts: try ContractSet.load(from: folder), adminChecks: true)
            let cases = generator.systematicCases()
            let coverage = RuleCoverage.listing(generator.statedRules, cases: cases)
            #expect(!coverage.isEmpty)
            #expect(generator.slotRequests()?.count == RequestGenerator.slots)
            // A 20 MiB limit is exercised only when heavy files are asked for, and then on both sides.
            let fileLimit = StatedRule.id("uploadPhoto", "/request", "maxFileBytes")
            #expect(coverage.first { $0.rule.id == fileLimit }?.cases == 0)
            let heavy = RequestGenerator(contracts: generator.contracts, adminChecks: true, heavyFiles: true).systematicCases()
            #expect(heavy.filter { $0.exercises.contains(fileLimit) }.count == 2)
            // The state vocabulary's rules are recognised, and each but the 20 MiB limit is exercised by some case.
            let listed = Set(coverage.map(\.rule.id))
            let exercised = Set(coverage.filter { $0.cases > 0 }.map(\.rule.id))
            #expect(listed.contains(fileLimit))
            var stateRules = [
                StatedRule.id("createAnnouncement", "/x-state/unique/microchipNumber", "unique"), StatedRule.id("createAnnouncement", "/x-state", "secret"),
                StatedRule.id("listAnnouncements", "/x-state", "filter"), StatedRule.id("listAnnouncements", "/x-state", "where"),
                StatedRule.id("uploadPhoto", "/x-state", "notFound"), StatedRule.id("uploadPhoto", "/x-state/credentials", "mismatch"),
                StatedRule.id("uploadPhoto", "/x-state/file", "detect"), StatedRule.id("uploadPhoto", "/x-state/file", "malformed"),
                StatedRule.id("uploadPhoto", "/request/parts/photo", "required"),
                StatedRule.id("getAnnouncement", "/x-state", "notFound"), StatedRule.id("getImage", "/x-state", "notFound"),
                StatedRule.id("deleteAnnouncement", "/x-state", "notFound"),
            ]
            stateRules += ["missing", "format", "base64", "no-colon", "empty"].map { StatedRule.id("uploadPhoto", "/request/auth", $0) }
            stateRules += ["missing", "mismatch"].map { StatedRule.id("deleteAnnouncement", "/request/auth", $0) }
            for rule in stateRules {
                #expect(listed.contains(rule), "\(folder.lastPathComponent): \(rule) is not listed")
                #expect(exercised.contains(rule), "\(folder.lastPathComponent): no case for \(rule)")
            }
            // A file rule the request states (the limit, the part) is one rule, not two.
            #expect(!listed.contains(StatedRule.id("uploadPhoto", "/x-state/file", "maxFileBytes")))
            #expect(!listed.contains(StatedRule.id("uploadPhoto", "/x-state/file", "required")))
            if folder.lastPathComponent == "2026-01-12" {
                #expect(listed.contains(StatedRule.id("registerUser", "/x-state/unique/email", "unique")))
                #expect(listed.contains(StatedRule.id("loginUser", "/x-state/credentials", "mismatch")))
            }
            print("\(folder.lastPathComponent): \(cases.count) systematic cases; \(coverage.count) stated rules; not exercised: "
                  + coverage.filter { $0.cases == 0 }.map(\.rule.id).joined(separator: ", "))
        }
    }
}

