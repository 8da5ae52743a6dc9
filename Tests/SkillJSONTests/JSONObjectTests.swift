import Testing
@testable import SkillJSON

@Suite struct JSONObjectTests {
    @Test func keepsInsertionOrderThroughUpdatesAndRemovals() {
        var object: JSONObject = ["z": 1, "a": 2, "m": 3]
        object["a"] = 20
        object["b"] = 4
        object["z"] = nil
        #expect(object.keys == ["a", "m", "b"])
        #expect(object["a"] == 20)
        #expect(object["z"] == nil)
        #expect(object.count == 3)
        #expect(object.member(at: 2).key == "b")
        #expect(object.hasMember("m") && !object.hasMember("z"))
        #expect(Array(object).map(\.key) == ["a", "m", "b"])
    }

    @Test func largeObjectsLookUpByHashAndStayOrdered() {
        var object = JSONObject()
        for index in 0..<40 { object["k\(index)"] = .int(Int64(index)) }
        #expect(object["k37"] == 37)
        object["k5"] = nil
        #expect(object["k5"] == nil)
        #expect(object["k6"] == 6)
        #expect(object.keys.first == "k0" && object.keys.count == 39)
        for index in 0..<35 { object["k\(index)"] = nil }
        #expect(object.keys == ["k35", "k36", "k37", "k38", "k39"])
        #expect(object["k39"] == 39)
    }

    @Test func copiesAreIndependent() {
        let original: JSONObject = ["a": 1]
        var copy = original
        copy["a"] = 2
        copy["b"] = 3
        #expect(original["a"] == 1 && original["b"] == nil)
        #expect(copy["a"] == 2 && copy["b"] == 3)
    }

    @Test func equalityAndHashIgnoreOrder() {
        let first: JSONObject = ["x": 1, "y": [true, "s"]]
        let second: JSONObject = ["y": [true, "s"], "x": 1.0]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != ["x": 1])
        #expect(first != ["x": 1, "y": [true, "t"]])
    }

    @Test func stringsCompareByCodePoint() {
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
        #expect(JSONValue.string("é") == JSONValue.string("é"))
    }
}
