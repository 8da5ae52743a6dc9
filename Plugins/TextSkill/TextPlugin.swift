// TextSkill: facts about a text, and short versions of it, computed locally.
//
// Provides:
//   text.stats      counts (characters, words, sentences, paragraphs), reading time, most frequent words
//   text.summarize  an extractive summary: the text's most representative sentences, in order
//   text.keywords   the words and two-word phrases that characterize the text
//
// Built as libTextSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map).
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    textPlugin.export(major, minor, host)
}

/// The text plugin: its id, version and skills.
let textPlugin = SkillPlugin(
    id: "text", name: "Text", version: "1.0.0",
    description: "Statistics, keywords and extractive summaries of a text the user gives, computed locally.",
    skills: [TextStatistics(), Summarize(), Keywords()])
    // Works on the text it is given: no files, no network, no processes.
    .declaring(.none)
