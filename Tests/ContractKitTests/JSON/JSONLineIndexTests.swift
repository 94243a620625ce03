import Foundation
import Testing
@testable import ContractKit

/// `JSONLineIndex`: the line and column where each JSON pointer starts, for annotations on the line at fault.
@Suite struct JSONLineIndexTests {
    static let document = """
        {
          "id": "createAnnouncement",
          "responses": [
            {"status": 201},
            {
              "status": 400,
              "a/b~c": {"ünï": true, "x": 1}
            }
          ],
          "empty": {}, "list": []
        }
        """

    let index = JSONLineIndex(text: Self.document)

    @Test func membersAreLocatedAtTheirKeyAndItemsAtTheirFirstCharacter() {
        #expect(index.position(of: "") == .init(line: 1, column: 1))
        #expect(index.position(of: "/id") == .init(line: 2, column: 3))
        #expect(index.position(of: "/responses") == .init(line: 3, column: 3))
        #expect(index.position(of: "/responses/0") == .init(line: 4, column: 5))
        #expect(index.position(of: "/responses/0/status") == .init(line: 4, column: 6))
        #expect(index.position(of: "/responses/1") == .init(line: 5, column: 5))
        #expect(index.position(of: "/responses/1/status") == .init(line: 6, column: 7))
        #expect(index.position(of: "/empty") == .init(line: 10, column: 3))
        #expect(index.position(of: "/list") == .init(line: 10, column: 16))
    }

    @Test func escapedKeysAndColumnsInCharacters() {
        #expect(index.position(of: "/responses/1/a~1b~0c") == .init(line: 7, column: 7))
        #expect(index.position(of: "/responses/1/a~1b~0c/ünï") == .init(line: 7, column: 17))
        // "ünï" is 5 bytes but 3 characters: the column after it counts characters.
        #expect(index.position(of: "/responses/1/a~1b~0c/x") == .init(line: 7, column: 30))
    }

    @Test func aMissingPointerFallsBackToItsClosestAncestor() {
        #expect(index.position(of: "/responses/1/code") == nil)
        #expect(index.nearestPosition(of: "/responses/1/code") == .init(line: 5, column: 5))
        #expect(index.nearestPosition(of: "/nothing/here") == .init(line: 1, column: 1))
        #expect(index.nearestPosition(of: "not a pointer") == .init(line: 1, column: 1))
    }

    @Test func aTruncatedDocumentKeepsWhatCameBeforeTheBreak() {
        let truncated = JSONLineIndex(text: "{\n  \"a\": 1,\n  \"b\": [1, 2,\n")
        #expect(truncated.position(of: "/a") == .init(line: 2, column: 3))
        #expect(truncated.position(of: "/b/1") == .init(line: 3, column: 12))
    }

    @Test func aByteOrderMarkDoesNotShiftColumns() {
        let withBOM = JSONLineIndex(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8))
        #expect(withBOM.position(of: "/a")?.line == 1)
        #expect(withBOM.position(of: "/a")?.column == 2)
    }
}
