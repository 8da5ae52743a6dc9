import SkillHostCore

/// The SKILL.md reader: frontmatter split, YAML subset parse, body.
func fuzzYAML(_ input: [UInt8]) {
    _ = try? SkillDocument(bytes: input)
    _ = try? YAMLSubsetParser.parse(String(decoding: input, as: UTF8.self))
}
