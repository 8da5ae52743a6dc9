import CSkillABI
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

@Suite struct TextPluginTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary.swiftProduct("TextSkill") }

    static let article = """
        Solar panels turn sunlight into electricity. Dr. Lee installed solar panels on the school roof in May.

        The panels now cover most of the school's electricity needs. On cloudy days the school buys electricity \
        from the grid! Students track the solar output every day.
        Is the roof strong enough? Engineers checked it first.
        """

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "text")
        #expect(
            manifest["skills"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["text.stats", "text.summarize", "text.keywords"])
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
    }

    @Test func statisticsCountWordsSentencesAndParagraphs() async {
        let call = await plugin.call("text.stats", ["text": .string(TextPluginTests.article), "top": 3])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["words"] == 53)
        #expect(call.json?["sentences"] == 7, "\"Dr.\" does not end a sentence")
        #expect(call.json?["paragraphs"] == 2)
        #expect(call.json?["lines"] == 4)
        #expect(
            call.json?["top_words"] == [
                ["word": "electricity", "count": 3], ["word": "panels", "count": 3], ["word": "solar", "count": 3],
            ], "ties sort alphabetically; \"school's\" is its own word")
        #expect(call.json?["reading_time_seconds"] == 14)
    }

    @Test func statisticsCountJapaneseByCharacter() async {
        let call = await plugin.call("text.stats", ["text": "今日は良い天気です。明日は雨が降るでしょう。"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["words"] == 20, "one word per character, punctuation excluded")
        #expect(call.json?["cjk_characters"] == 20)
        #expect(call.json?["sentences"] == 2, "full-width stops end sentences without a space")
        #expect(call.json?["reading_time_seconds"] == 3, "20 characters at 500 per minute")
    }

    @Test func statisticsOfMixedChineseAndLatinText() async {
        let call = await plugin.call("text.stats", ["text": "我爱Swift编程！Swift is fun."])
        #expect(call.json?["words"] == 8, "我 爱 swift 编 程 swift is fun")
        #expect(call.json?["cjk_characters"] == 4)
        #expect(call.json?["sentences"] == 2)
    }

    @Test func statisticsOfAOneWordText() async {
        let call = await plugin.call("text.stats", ["text": "Hello"])
        #expect(call.json?["words"] == 1)
        #expect(call.json?["sentences"] == 1)
        #expect(call.json?["top_words"] == [["word": "hello", "count": 1]])
    }

    @Test func summaryKeepsTheMostRepresentativeSentencesInOrder() async {
        let call = await plugin.call("text.summarize", ["text": .string(TextPluginTests.article), "sentences": 2])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["original_sentences"] == 7)
        #expect(call.json?["sentence_indices"] == [0, 1])
        #expect(
            call.json?["summary"]
                == "Solar panels turn sunlight into electricity. Dr. Lee installed solar panels on the school roof in May."
        )
    }

    @Test func summaryOfAShortTextIsTheText() async {
        let call = await plugin.call("text.summarize", ["text": "Only one sentence here."])
        #expect(call.json?["summary"] == "Only one sentence here.")
    }

    @Test func missingTextIsAnInvalidArgument() async {
        let call = await plugin.call("text.summarize", ["sentences": 2])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/text")
    }

    @Test func keywordsRankByCountThenPhrasesBeforeWords() async {
        let call = await plugin.call("text.keywords", ["text": .string(TextPluginTests.article), "count": 5])
        #expect(call.json?["summary"] == "electricity, panels, solar, solar panels, roof")
        #expect(
            call.json?["keywords"] == [
                ["keyword": "electricity", "count": 3], ["keyword": "panels", "count": 3],
                ["keyword": "solar", "count": 3], ["keyword": "solar panels", "count": 2],
                ["keyword": "roof", "count": 2],
            ])
    }
}
