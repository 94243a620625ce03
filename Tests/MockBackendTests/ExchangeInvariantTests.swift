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
        let validator = ExchangeValidator(contracts: try PetSpotTestSupport.loadedContracts())
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
        let validator = ExchangeValidator(contracts: try PetSpotTestSupport.loadedContracts())
        _ = validator.validate(exchange("POST", "/api/v1/announcements", status: 201,
                                        body: ["id": .string(id), "managementPassword": "123456", "photoUrl": nil]))
        let basic = "Basic " + Data("\(id):123456".utf8).base64EncodedString()
        let refused = validator.validate(exchange("POST", "/api/v1/announcements/\(id)/photos", status: 403,
                                                  body: ["error": ["requestId": "a1B2c3D4e5", "code": "UNAUTHORIZED", "message": "x"]], auth: basic))
        #expect(refused.contains { $0.pointer == "status" && $0.side == .server && $0.got == "403" })
    }

    @Test func whatTheAdminAPIChangedBehindTheTrafficIsForgotten() throws {
        let contracts = try PetSpotTestSupport.loadedContracts()
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
}
