import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// A `status` fault answers with a final status, 200 to 599 (issue 29): a 1xx is interim, so a client given one as
/// "the answer" waits on for the real one.
@Suite struct FinalStatusFaultTests {
    @Test func rulesFilesRefuseInterimStatusesWithAClearMessage() throws {
        for status in [100, 101, 103, 199, 600] {
            let json = try JSONValue(parsing: Data(#"{"rules": [{"fault": {"kind": "status", "status": \#(status)}}]}"#.utf8))
            do {
                _ = try FaultRule.parseRules(json, file: "faults.json")
                Issue.record("\(status) was accepted")
            } catch {
                #expect(error.pointer == "/rules/0/fault/status")
                #expect(error.description.contains("200 to 599"), "\(error.description)")
                if status < 200 { #expect(error.description.contains("interim"), "\(error.description)") }
            }
        }
        for status in [200, 204, 418, 599] {
            let rules = try FaultRule.parseRules(try JSONValue(parsing: Data(#"{"rules": [{"fault": {"kind": "status", "status": \#(status)}}]}"#.utf8)),
                                                 file: "faults.json")
            #expect(rules.first?.fault == .status(status))
        }
    }

    @Test func shortcutsRefuseThemToo() {
        for text in ["a:100", "a:101", "a:status:101", "a:199"] {
            do {
                _ = try FaultRule.parseShortcut(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.message.contains("200 to 599"), "\(error.message)")
            }
        }
    }

    @Test func theAdminAPIRefusesThemWithThePointer() async throws {
        try await withServer { server, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            for (method, path, body) in [("PUT", "/__spotcheck/faults", #"{"rules": [{"fault": {"kind": "status", "status": 101}}]}"#),
                                         ("POST", "/__spotcheck/faults/rules", #"{"fault": {"kind": "status", "status": 100}}"#)] {
                try await connection.send(rawRequest(method, path, body: body, headers: ["Content-Type": "application/json"]))
                let answer = await connection.readResponse()
                #expect(answer.status == 400, "\(method) \(path)")
                let error = try JSONValue(parsing: Data(answer.body ?? []))["error"]
                #expect(error?["message"]?.stringValue?.contains("200 to 599") == true)
                #expect(error?["pointer"]?.stringValue?.hasSuffix("fault/status") == true)
            }
            #expect(server.faults.rules.isEmpty)
        }
    }
}
