import SkillHostCore
import Testing

@Suite("NearestName: the 'did you mean' hint")
struct NearestNameTests {
    @Test("optimal string alignment distance: insert, delete, substitute and a swap of neighbours each count 1",
          arguments: [("list", "list", 0), ("lst", "list", 1), ("lsit", "list", 1), ("lust", "list", 1),
                      ("lists", "list", 1), ("", "list", 4), ("list", "", 4), ("ca", "abc", 3), ("trace", "trust", 3)])
    func distance(a: String, b: String, expected: Int) {
        #expect(NearestName.distance(Array(a.utf8), Array(b.utf8)) == expected)
        #expect(NearestName.distance(Array(b.utf8), Array(a.utf8)) == expected)
    }

    @Test("a slip is matched; a word unlike every name, or a name itself, is not")
    func suggestions() {
        let commands = ["list", "inspect", "enable", "disable", "call", "chat", "trace", "trust", "untrust"]
        #expect(NearestName.suggestion(for: "lst", among: commands) == "list")
        #expect(NearestName.suggestion(for: "inspcet", among: commands) == "inspect")
        #expect(NearestName.suggestion(for: "enabel", among: commands) == "enable")
        #expect(NearestName.suggestion(for: "frobnicate", among: commands) == nil)
        #expect(NearestName.suggestion(for: "xy", among: commands) == nil)
        #expect(NearestName.suggestion(for: "call", among: commands) == nil)
        // Short words only match a one-letter slip: "cal" → "call", but "ct" is two away from "chat".
        #expect(NearestName.suggestion(for: "cal", among: commands) == "call")
        #expect(NearestName.suggestion(for: "ct", among: commands) == nil)
    }

    @Test("among equally close names the first given wins; a closer later one still beats it")
    func ties() {
        #expect(NearestName.suggestion(for: "cal", among: ["call", "cat"]) == "call")
        #expect(NearestName.suggestion(for: "cal", among: ["cat", "call"]) == "cat")
        #expect(NearestName.suggestion(for: "clock.nwo", among: ["clock.today", "clock.now"]) == "clock.now")
    }

    @Test("not-found messages carry the catalog's nearest id of the kinds asked for")
    func catalogHint() {
        let skill = SkillDescription(
            id: "clock.now", title: "Now", description: "The time", parameters: ["type": "object"], permission: .read,
            timeout: 5, idempotent: true, examples: [], pluginID: "clock", pluginPath: "/p/clock.so", enabled: true,
            approval: .allow)
        let catalog = Catalog(plugins: [PluginRecord(id: "clock", path: "/p/clock.so", status: .ok, enabled: true, skills: [skill])])
        #expect(catalog.didYouMean("clock.nwo", among: [.skill]) == "did you mean \"clock.now\"? ")
        #expect(catalog.didYouMean("clock.nwo", among: [.plugin]) == "")
        #expect(catalog.didYouMean("clok", among: [.plugin]) == "did you mean \"clock\"? ")
        #expect(catalog.didYouMean("weather.now", among: [.skill, .plugin]) == "")
    }
}
