import SkillMCP
import Testing

@Suite struct MCPToolNameMapTests {
    @Test func skillIDsThatFitTheGrammarAreTheirOwnNames() {
        let map = MCPToolNameMap(skillIDs: ["clock.now", "acme.calendar.create_event", "text-x.stats"])
        for id in ["clock.now", "acme.calendar.create_event", "text-x.stats"] {
            #expect(map.toolName(for: id) == id)
            #expect(map.skillID(for: id) == id)
        }
        #expect(map.skillID(for: "Clock.Now") == nil)
    }

    @Test func idsOutsideTheGrammarMapBothWaysWithoutCollisions() throws {
        let long = String(repeating: "a", count: 140) + ".b"
        let ids = ["a.b c", "a.b_c", "a.b/c", "ö.x", "_.x", long]
        let map = MCPToolNameMap(skillIDs: ids)
        var names = Set<String>()
        for id in ids {
            let name = try #require(map.toolName(for: id))
            #expect(MCPToolNameMap.isValidToolName(name), "\(name)")
            #expect(map.skillID(for: name) == id)
            names.insert(name)
        }
        #expect(names.count == ids.count)
        #expect(map.toolName(for: "a.b_c") != "a.b_c")  // colliding plain names all get a suffix
        #expect(MCPToolNameMap(skillIDs: ids.reversed()) == map)  // stable whatever the order
    }
}
