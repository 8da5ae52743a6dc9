import SkillCalls
import SkillMCP
import Testing

@Suite struct MCPToolNameMapTests {
    @Test func skillIDsThatFitTheGrammarAreTheirOwnNames() {
        let map = ToolNameMap(skillIDs: ["clock.now", "acme.calendar.create_event", "text-x.stats"], grammar: .mcp)
        for id in ["clock.now", "acme.calendar.create_event", "text-x.stats"] {
            #expect(map.toolName(for: id) == id)
            #expect(map.skillID(for: id) == id)
        }
        #expect(map.skillID(for: "Clock.Now") == nil)
    }

    @Test func idsOutsideTheGrammarMapBothWaysWithoutCollisions() throws {
        let long = String(repeating: "a", count: 140) + ".b"
        let ids = ["a.b c", "a.b_c", "a.b/c", "ö.x", "_.x", long]
        let map = ToolNameMap(skillIDs: ids, grammar: .mcp)
        var names = Set<String>()
        for id in ids {
            let name = try #require(map.toolName(for: id))
            #expect(ToolNameGrammar.mcp.isValid(name), "\(name)")
            #expect(map.skillID(for: name) == id)
            names.insert(name)
        }
        #expect(names.count == ids.count)
        #expect(map.toolName(for: "a.b_c") != "a.b_c")  // colliding plain names all get a suffix
        #expect(ToolNameMap(skillIDs: ids.reversed(), grammar: .mcp) == map)  // stable whatever the order
    }
}
