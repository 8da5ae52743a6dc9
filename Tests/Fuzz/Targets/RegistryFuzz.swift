import SkillHostCore
import SkillJSON

/// The registry reader: a parsed skill_registry.json checked into a ``Registry``.
func fuzzRegistry(_ input: [UInt8]) {
    guard let document = try? JSONValue(parsing: input) else { return }
    _ = try? Registry(document: document, file: "skill_registry.json")
}
