// `import ManifestCheck` gives the product rules it checks against.
@_exported import SkillContract
