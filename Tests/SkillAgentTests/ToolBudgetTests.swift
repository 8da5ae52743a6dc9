import SkillCalls
import SkillJSON
import Testing

@testable import SkillAgent

/// 588 made-up skills beside the 12 bundled ones, with words that overlap theirs ("time", "date", "count",
/// "text", "memory", "words"), so the selection has to rank rather than filter.
enum ManySkills {
    static let domains = [
        "calendar", "mail", "files", "notes", "weather", "music", "photos", "contacts", "tasks", "finance", "maps",
        "recipes", "fitness", "news",
    ]
    static let verbs = ["list", "add", "remove", "search", "export", "share", "rename"]
    static let objects = ["item", "entry", "record", "date", "text", "file"]

    static let tools: [ToolSpec] = {
        var specs: [ToolSpec] = []
        for domain in domains {
            for verb in verbs {
                for object in objects {
                    let id = "\(domain).\(verb)_\(object)"
                    let tool = SkillTool(
                        id: id, title: "\(verb.capitalized) \(domain) \(object)s",
                        description: "\(verb.capitalized)s \(object)s in the \(domain) app. Use it to \(verb) \(object)s by name, time or tag; the answer counts the matching \(object)s and gives their ids, dates and memory use in words.",
                        parameters: [
                            "type": "object",
                            "properties": [
                                "name": ["type": "string", "description": .string("Name of the \(object)"), "maxLength": 200],
                                "limit": ["type": "integer", "description": "How many at most", "minimum": 1, "maximum": 100],
                            ],
                            "required": ["name"], "additionalProperties": false,
                        ],
                        examples: ["\(verb) \(object) {name} in \(domain)", "\(verb) my \(domain) \(object)s"])
                    specs.append(ToolSpec(name: id.replacingOccurrences(of: ".", with: "_"), tool: tool))
                }
            }
        }
        return specs
    }()

    /// Every bundled example with its slots filled, and the tool it is for.
    static var bundledExamples: [(sentence: String, tool: String)] {
        BundledSkills.tools.flatMap { spec in
            spec.tool.examples.map { example in
                var sentence = example
                for (name, value) in OfflinePlannerBundledSkillsTests.samples {
                    sentence = sentence.replacingOccurrences(of: "{\(name)}", with: value)
                }
                return (sentence, spec.name)
            }
        }
    }
}

@Suite struct ToolBudgetTests {
    static let all = BundledSkills.tools + ManySkills.tools

    @Test func sixHundredSkills() {
        #expect(Self.all.count == 600)
        #expect(ToolBudget.tokens(of: Self.all) > 50 * ToolBudget(contextTokens: 8192).maxTokens / 10)
    }

    @Test(arguments: [8192, 2048])
    func everyBundledExampleIsOfferedItsSkillWithinBudget(contextTokens: Int) {
        let budget = ToolBudget(contextTokens: contextTokens)
        let selector = ToolSelector(specs: Self.all, budget: budget)
        for (sentence, tool) in ManySkills.bundledExamples {
            let offered = selector.offer(for: sentence)
            #expect(offered.count <= budget.maxTools, "\(sentence)")
            #expect(ToolBudget.tokens(of: offered) <= budget.maxTokens, "\(sentence)")
            #expect(offered.contains { $0.name == tool }, "\(sentence) → \(offered.map(\.name)) ranked \(selector.ranked(for: sentence).firstIndex { $0.name == tool } ?? -1)")
            #expect(offered.last?.name == FindSkillsTool.name)
        }
    }

    @Test func descriptionsShrinkToTheirFirstSentenceOnlyWhenTight() {
        let roomy = ToolSelector(specs: Self.all, budget: ToolBudget(maxTools: 4, maxTokens: 100_000)).offer(for: "what time is it in Tokyo")
        #expect(roomy.first { $0.name == "clock_now" }?.tool.description.hasPrefix("The current date, time and weekday in a time zone (UTC when none is given). Use it") == true)
        let tight = ToolSelector(specs: Self.all, budget: ToolBudget(contextTokens: 2048)).offer(for: "what time is it in Tokyo")
        #expect(tight.first { $0.name == "clock_now" }?.tool.description == "The current date, time and weekday in a time zone (UTC when none is given).")
    }

    @Test func firstSentenceKeepsAbbreviations() {
        #expect(ToolSelector.firstSentence(of: "Shows a time, e.g. 9:30 in Tokyo. More.") == "Shows a time, e.g. 9:30 in Tokyo.")
        #expect(ToolSelector.firstSentence(of: "No full stop") == "No full stop")
    }

    @Test func fewSkillsAreAllOfferedWithoutFindSkills() {
        let offered = ToolSelector(specs: BundledSkills.tools, budget: ToolBudget(contextTokens: 32_768)).offer(for: "uptime")
        #expect(offered.map(\.name) == BundledSkills.tools.map(\.name))
    }

    static func backend() -> InMemorySkillBackend {
        InMemorySkillBackend(
            Self.all.map { spec in
                InMemorySkillBackend.Skill(tool: spec.tool) { arguments in ["ok": true, "skill": .string(spec.tool.id)] }
            })
    }

    @Test func aTurnWithSixHundredSkillsStaysWithinBudgetAndFindSkillsOffersMore() async throws {
        let model = ScriptedProvider([
            ModelReply(content: "", toolCalls: [ToolCall(id: "f1", name: "find_skills", argumentsText: #"{"query": "export my recipes file"}"#)]),
            ModelReply(content: "", toolCalls: [ToolCall(id: "c1", name: "recipes_export_file", argumentsText: #"{"name": "soup"}"#)]),
            ModelReply(content: "Exported.", finishReason: "stop"),
        ])
        var configuration = AgentConfiguration()
        configuration.toolBudget = ToolBudget(contextTokens: 4096)
        let backend = Self.backend()
        let agent = Agent(provider: model, backend: backend, configuration: configuration)
        let all = await events(of: agent, "what time is it in Tokyo")
        #expect(all.turnFailure == nil)
        #expect(all.answer == "Exported.")
        let requests = model.requests
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.tools.count <= 16)
            #expect(ToolBudget.tokens(of: request.tools) <= configuration.toolBudget.maxTokens)
            #expect(request.tools.contains { $0.name == "clock_now" })
        }
        #expect(!requests[0].tools.contains { $0.name == "recipes_export_file" })
        #expect(requests[1].tools.first?.name == "recipes_export_file")
        let found = try #require(all.compactMap { if case .skillSucceeded(let info, let result, _) = $0, info.toolName == "find_skills" { result } else { nil } }.first)
        #expect(found["skills"]?.arrayValue?.first?["name"] == "recipes_export_file")
        #expect(backend.invocations.map(\.skillID) == ["recipes.export_file"])
    }

    /// The instruction-skill tools are pinned: with 600 skills and a tight budget, a model whose system prompt
    /// names instruction skills can still activate one, whatever the sentence.
    @Test func instructionToolsAreAlwaysOffered() async throws {
        let instructionTools = InstructionTools.tools(for: [(name: "time-zones", description: "Scheduling across zones.")])
        let specs = instructionTools.map { ToolSpec(name: $0.id, tool: $0) } + Self.all
        let selector = ToolSelector(specs: specs, budget: ToolBudget(contextTokens: 2048))
        let builtIn = [InstructionTools.activate, InstructionTools.readFile]
        let offered = selector.offer(for: "export my recipes file", pinned: builtIn).map(\.name)
        #expect(offered.prefix(2) == ["activate_skill", "read_skill_file"][...], "\(offered)")
    }
}
