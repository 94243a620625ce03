import Foundation
import Testing
@testable import ContractKit

/// `ExamplePointer`: `verify`'s reports point at the example a check comes from.
@Suite struct ExamplePointerTests {
    static let contract: JSONValue = [
        "request": ["examples": [["name": "minimal"]]],
        "responses": [["status": 201, "examples": [["name": "created"]]], ["status": 400, "examples": [["name": "x"], ["name": "bad phone"]]]],
    ]

    @Test func responseExamplesFirstThenRequestExamples() {
        #expect(ExamplePointer.find("bad phone", in: Self.contract) == "/responses/1/examples/1")
        #expect(ExamplePointer.find("created", in: Self.contract) == "/responses/0/examples/0")
        #expect(ExamplePointer.find("minimal", in: Self.contract) == "/request/examples/0")
        #expect(ExamplePointer.find("nowhere", in: Self.contract) == nil)
    }

    @Test func anUnreadableFileHasNoPointer() {
        #expect(ExamplePointer.find("x", inFile: URL(fileURLWithPath: "/nonexistent/contract.json")) == nil)
    }
}
