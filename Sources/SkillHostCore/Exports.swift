// `import SkillHostCore` gives the product rules and the manifest types too.
@_exported import ManifestCheck
@_exported import SkillContract
