import ContractKit
import Foundation
import Testing
import ClientDoubles

@testable import ScenarioEngine

/// The journal checks find the flow's create, upload and read by what the contracts declare, so an API that names them
/// otherwise is judged by its own names.
@Suite struct FlowOperationsTests {
    @Test func theBundledFlowsOperationsComeFromXState() throws {
        let operations = FlowOperations(contracts: try EngineTestSupport.contracts(), sends: ["createAnnouncement", "uploadPhoto"])
        #expect(operations.creates == ["createAnnouncement"])
        #expect(operations.secret == "managementPassword" && operations.identifier == "id")
        #expect(operations.isUpload("uploadPhoto") && !operations.isUpload("createAnnouncement"))
        #expect(operations.uploadTarget("/api/v1/announcements/a%20b/photos", contract: "uploadPhoto") == "a b")
        #expect(operations.uploadTarget("/api/v1/announcements/a") == nil)
        #expect(operations.isRead("getAnnouncement"))
        #expect(operations.readTarget("/api/v1/announcements/x1") == "x1")
        #expect(operations.readPath(of: "a/b c") == "/api/v1/announcements/a%2Fb%20c")
    }

    @Test func anotherAPIsNamesAreFoundByWhatItsContractsDo() throws {
        let operations = FlowOperations(contracts: try RenamedContracts.load(), sends: ["openCase", "attachScan"])
        #expect(operations.creates == ["openCase"] && operations.secret == "casePin")
        #expect(operations.uploadTarget("/api/v1/cases/c7/scans") == "c7")
        #expect(operations.readPath(of: "c7") == "/api/v1/cases/c7")
        // The summary's secret opens the case whose scan was attached: judged through the renamed operations.
        let created = JournalRecord(sequence: 1, method: "POST", path: "/api/v1/cases", contract: "openCase", status: 201, authUser: nil, fault: nil,
                                    responseText: #"{"id": "c7", "casePin": "123456"}"#)
        let attached = JournalRecord(sequence: 2, method: "POST", path: "/api/v1/cases/c7/scans", contract: "attachScan", status: 201,
                                     authUser: "c7", fault: nil)
        let other = JournalRecord(sequence: 2, method: "POST", path: "/api/v1/cases/c8/scans", contract: "attachScan", status: 201,
                                  authUser: "c8", fault: nil)
        #expect(PasswordPhotoCheck.check(password: "123456", journal: [created, attached], operations: operations).isEmpty)
        let elsewhere = PasswordPhotoCheck.check(password: "123456", journal: [created, other], operations: operations)
        #expect(elsewhere.map(\.actual) == ["\"123456\" opens c7, which has no photo: the photo went to c8"])
        let unknown = PasswordPhotoCheck.check(password: "999999", journal: [created, attached], operations: operations)
        #expect(unknown.first?.expected == "the casePin of a record the backend created")
    }
}
