import ManifestCheck
import SkillJSON

/// The manifest reader (bytes → validated manifest) and the checker on any parsed document.
func fuzzManifest(_ input: [UInt8]) {
    _ = try? ManifestValidator.validate(bytes: input, file: "fuzz.json")
    if let document = try? JSONValue(parsing: input) {
        _ = ManifestValidator.check(document)
    }
}
