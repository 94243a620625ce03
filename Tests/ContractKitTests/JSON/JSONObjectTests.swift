import Testing
@testable import ContractKit

/// `JSONObject` scans small objects and indexes large ones; both must keep order, last value wins, and removal.
@Suite struct JSONObjectTests {
    @Test(arguments: [3, 32, 33, 80])
    func membersKeepOrderAcrossSetsAndRemovals(size: Int) {
        var object = JSONObject((0..<size).map { ("k\($0)", JSONValue.number(Double($0))) })
        #expect(object.keys == (0..<size).map { "k\($0)" })
        object["k1"] = .string("changed")
        #expect(object["k1"] == .string("changed"))
        #expect(object.keys[1] == "k1")
        object["k0"] = nil
        #expect(object["k0"] == nil)
        #expect(object.count == size - 1)
        #expect(object.keys.first == "k1")
        // After a removal every later member is still found at its new position.
        for i in 2..<size { #expect(object["k\(i)"] == .number(Double(i)), "k\(i) of \(size)") }
        object["new"] = .bool(true)
        #expect(object.keys.last == "new")
        #expect(object["new"] == .bool(true))
    }

    @Test func aRepeatedKeyKeepsItsFirstPositionAndLastValue() {
        let pairs = [("a", JSONValue.number(1)), ("b", .number(2)), ("a", .number(3))] + (0..<40).map { ("x\($0)", JSONValue.null) } + [("b", .number(4))]
        let object = JSONObject(pairs)
        #expect(object.keys.prefix(2) == ["a", "b"])
        #expect(object["a"] == .number(3))
        #expect(object["b"] == .number(4))
        #expect(object.count == 42)
    }

    @Test func equalityIgnoresOrderWhateverTheSize() {
        let small = JSONObject([("a", .number(1)), ("b", .number(2))])
        let smallReversed = JSONObject([("b", .number(2)), ("a", .number(1))])
        #expect(small == smallReversed)
        let large = JSONObject((0..<40).map { ("k\($0)", JSONValue.number(Double($0))) })
        let largeReversed = JSONObject((0..<40).reversed().map { ("k\($0)", JSONValue.number(Double($0))) })
        #expect(large == largeReversed)
        #expect(large.hashValue == largeReversed.hashValue)
    }
}
