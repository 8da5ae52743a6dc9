// `import JSONSchema` gives the shared JSON value type too.
@_exported import SkillJSON
