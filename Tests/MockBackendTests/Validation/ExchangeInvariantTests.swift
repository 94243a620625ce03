import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The cross-request rules the validator learns from traffic, fed a deliberately wrong server's answers.
@Suite struct ExchangeInvariantTests {
    let id = "3f1c2b7e-8a4d-4c1e-9b2a-1d2e3f4a5b6c"
    let json = [HeaderField(name: "Content-Type", value: "application/json")]

    private func exchange(_ method: String, _ path: String, status: Int, body: JSONValue?, auth: String? = nil) -> Exchange {
        Exchange(method: method, path: path, requestHeaders: auth.map { [HeaderField(name: "Authorization", value: $0)] } ?? [],
                 status: status, responseHeaders: json, responseBody: body.map { Array($0.serialized().utf8) } ?? [])
    }

    private func invariantPointers(_ violations: [ExchangeViolation]) -> [String] {
        violations.filter { $0.expected.contains("invariant") }.map(\.pointer)
    }

    @Test func photoURLPasswordAndCredentialsFollowTheTraffic() throws {
        let validator = ExchangeValidator(contracts: try BundledContractsTestSupport.loadedContracts())
        let created: JSONValue = ["id": .string(id), "managementPassword": "123456", "photoUrl": nil]
        _ = validator.validate(exchange("POST", "/api/v1/announcements", status: 201, body: created))
        // Before any upload the photo must be null.
        let early = validator.validate(exchange("GET", "/api/v1/announcements/\(id)", status: 200,
                                                body: ["id": .string(id), "photoUrl": .string("/images/\(id).png")]))
        #expect(invariantPointers(early) == ["/photoUrl"])
        // The server takes a password it never handed out.
        let basic = "Basic " + Data("\(id):999999".utf8).base64EncodedString()
        let upload = validator.validate(exchange("POST", "/api/v1/announcements/\(id)/photos", status: 201, body: [:], auth: basic))
        #expect(upload.contains { $0.pointer == "status" && $0.side == .server && $0.expected.contains("403") })
        // After the upload: /images/<id>.<ext>, and never the password.
        let late = validator.validate(exchange("GET", "/api/v1/announcements/\(id)", status: 200,
                                               body: ["id": .string(id), "photoUrl": nil, "managementPassword": "123456"]))
        #expect(invariantPointers(late).sorted() == ["/managementPassword", "/photoUrl"])
        let list = validator.validate(exchange("GET", "/api/v1/announcements", status: 200,
                                               body: ["data": [["id": .string(id), "photoUrl": .string("/images/\(id).jpg")]]]))
        #expect(invariantPointers(list).isEmpty)
    }

    @Test func theRightPasswordRefusedIsTheServersFault() throws {
        let validator = ExchangeValidator(contracts: try BundledContractsTestSupport.loadedContracts())
        _ = validator.validate(exchange("POST", "/api/v1/announcements", status: 201,
                                        body: ["id": .string(id), "managementPassword": "123456", "photoUrl": nil]))
        let basic = "Basic " + Data("\(id):123456".utf8).base64EncodedString()
        let refused = validator.validate(exchange("POST", "/api/v1/announcements/\(id)/photos", status: 403,
                                                  body: ["error": ["requestId": "a1B2c3D4e5", "code": "UNAUTHORIZED", "message": "x"]], auth: basic))
        #expect(refused.contains { $0.pointer == "status" && $0.side == .server && $0.got == "403" })
    }

    @Test func whatTheAdminAPIChangedBehindTheTrafficIsForgotten() throws {
        let contracts = try BundledContractsTestSupport.loadedContracts()
        let monitor = ExchangeMonitor(validator: ExchangeValidator(contracts: contracts), coverage: ContractCoverage(contracts: contracts, source: "mock"))
        let validator = try #require(monitor.validator)
        let uploaded = {
            _ = validator.validate(self.exchange("POST", "/api/v1/announcements", status: 201,
                                                 body: ["id": .string(self.id), "managementPassword": "123456", "photoUrl": nil]))
            let basic = "Basic " + Data("\(self.id):123456".utf8).base64EncodedString()
            _ = validator.validate(self.exchange("POST", "/api/v1/announcements/\(self.id)/photos", status: 201, body: [:], auth: basic))
        }
        // A fixture without a photo replaced the announcement: its null photoUrl is now right.
        let read = { validator.validate(self.exchange("GET", "/api/v1/announcements/\(self.id)", status: 200, body: ["id": .string(self.id), "photoUrl": nil])) }
        uploaded()
        #expect(invariantPointers(read()) == ["/photoUrl"], "remembered: the upload happened")
        monitor.backendForgot(ids: ["another-id", id])
        #expect(invariantPointers(read()).isEmpty)
        uploaded()
        monitor.backendForgot(ids: nil)
        #expect(invariantPointers(read()).isEmpty)
    }

    @Test func theInvariantsFollowTheContractsXStateNotPetSpotsNames() throws {
        let renamed = try RenamedContracts()
        defer { renamed.remove() }
        let validator = ExchangeValidator(contracts: try renamed.load())
        // The create's generate (`pin`: digits-6) and initial (`labelUrl`: null) are what a create answer is held to.
        let bad = validator.validate(exchange("POST", "/api/v1/parcels", status: 201,
                                              body: ["id": .string(id), "pin": "12345", "labelUrl": "/labels/x.png"]))
        #expect(invariantPointers(bad) == ["/pin", "/labelUrl"])
        #expect(bad.contains { $0.expected == "6 digits (invariant: pin)" })
        #expect(bad.contains { $0.expected == "null at creation (invariant: labelUrl null until upload)" })
        _ = validator.validate(exchange("POST", "/api/v1/parcels", status: 201, body: ["id": .string(id), "pin": "123456", "labelUrl": nil]))
        // A read never shows the secret, and the attach-file's field is null before any upload.
        let early = validator.validate(exchange("GET", "/api/v1/parcels/\(id)", status: 200,
                                                body: ["id": .string(id), "labelUrl": .string("/labels/\(id).png"), "pin": "123456"]))
        #expect(invariantPointers(early).sorted() == ["/labelUrl", "/pin"])
        // The Basic user is the parcel's id, and a pin the create never handed out must be refused.
        let basic = "Basic " + Data("someone:999999".utf8).base64EncodedString()
        let upload = validator.validate(exchange("POST", "/api/v1/parcels/\(id)/photos", status: 201, body: [:], auth: basic))
        #expect(upload.contains { $0.pointer == "header:Authorization" && $0.side == .client && $0.expected.hasPrefix("the parcel id \(id) as the Basic user") })
        #expect(upload.contains { $0.pointer == "status" && $0.side == .server && $0.expected.contains("403") })
        // After the upload the list shows the address the attach-file publishes, `/labels/{id}.{ext}`, under its `wrap`.
        let list = validator.validate(exchange("GET", "/api/v1/parcels", status: 200,
                                               body: ["data": [["id": .string(id), "labelUrl": .string("/images/\(id).png")]]]))
        #expect(invariantPointers(list) == ["/data/0/labelUrl"])
        #expect(list.contains { $0.expected == "/labels/\(id).<ext> after the upload (invariant: labelUrl)" })
        // PetSpot's names mean nothing to these contracts.
        let read = validator.validate(exchange("GET", "/api/v1/parcels/\(id)", status: 200,
                                               body: ["id": .string(id), "labelUrl": .string("/labels/\(id).jpg"), "managementPassword": "123456", "photoUrl": "x"]))
        #expect(invariantPointers(read).isEmpty)
    }
}
