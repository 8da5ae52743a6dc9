import Foundation
import SkillJSON

/// Checks a skill folder the way the reference validator (`skills-ref`, `agentskills validate`) does, with
/// the same problems in the same order and the same wording, so users see one set of messages.
///
/// Rules (Agent Skills specification): `SKILL.md` (or `skill.md`) present, starting with `---` frontmatter
/// that closes; only the fields `name`, `description`, `license`, `compatibility`, `metadata` and
/// `allowed-tools`; `name` 1–64 characters after NFKC normalization, lowercase letters, digits and hyphens,
/// no leading, trailing or double hyphen, equal to the folder name; `description` 1–1024 characters;
/// `compatibility` at most 500 characters.
public enum InstructionSkillValidator {
    /// Longest skill name.
    public static let maximumNameLength = 64
    /// Longest description.
    public static let maximumDescriptionLength = 1024
    /// Longest compatibility text.
    public static let maximumCompatibilityLength = 500
    /// The frontmatter fields the specification allows.
    public static let allowedFields: Set<String> = [
        "name", "description", "license", "allowed-tools", "metadata", "compatibility",
    ]

    /// The `SKILL.md` file of `folder`: `SKILL.md`, else `skill.md`, else nil.
    public static func skillFile(in folder: String) -> String? {
        for name in ["SKILL.md", "skill.md"] where Posix.exists(folder + "/" + name) {
            return folder + "/" + name
        }
        return nil
    }

    /// Every problem of the skill folder at `path` (empty when it is valid).
    public static func validate(folder path: String) -> [String] {
        guard Posix.exists(path) else { return ["Path does not exist: \(path)"] }
        guard let status = try? Posix.status(ofPath: path), status.isDirectory else {
            return ["Not a directory: \(path)"]
        }
        guard let file = skillFile(in: path) else { return ["Missing required file: SKILL.md"] }
        let document: SkillDocument
        do {
            document = try read(file)
        } catch {
            return [error.message]
        }
        return validate(frontmatter: document.frontmatter, folderName: folderName(of: path))
    }

    /// Reads and parses the `SKILL.md` at `file`, refusing one larger than `SkillDocument.maximumFileSize`.
    public static func read(_ file: String) throws(SkillDocument.Failure) -> SkillDocument {
        let status: Posix.FileStatus
        do { status = try Posix.status(ofPath: file) } catch { throw SkillDocument.Failure(error.message) }
        guard status.isRegularFile else { throw SkillDocument.Failure("SKILL.md is not a regular file") }
        guard status.size <= Int64(SkillDocument.maximumFileSize) else {
            throw SkillDocument.Failure(
                "SKILL.md is \(status.size) bytes, over the \(SkillDocument.maximumFileSize)-byte limit; move long material into references/")
        }
        let bytes: [UInt8]
        do { bytes = try Posix.readFile(atPath: file, limit: SkillDocument.maximumFileSize) } catch {
            throw SkillDocument.Failure(error.message)
        }
        return try SkillDocument(bytes: bytes)
    }

    /// The problems of parsed frontmatter; `folderName` (when given) must equal the name.
    public static func validate(frontmatter: JSONObject, folderName: String?) -> [String] {
        var errors: [String] = []
        let extra = frontmatter.keys.filter { !allowedFields.contains($0) }.sorted()
        if !extra.isEmpty {
            let allowed = allowedFields.sorted().map { "'\($0)'" }.joined(separator: ", ")
            errors.append(
                "Unexpected fields in frontmatter: \(extra.joined(separator: ", ")). Only [\(allowed)] are allowed.")
        }
        if let name = frontmatter["name"] {
            errors += validateName(name, folderName: folderName)
        } else {
            errors.append("Missing required field in frontmatter: name")
        }
        if let description = frontmatter["description"] {
            errors += validateDescription(description)
        } else {
            errors.append("Missing required field in frontmatter: description")
        }
        if let compatibility = frontmatter["compatibility"] {
            if let text = compatibility.stringValue {
                let count = text.unicodeScalars.count
                if count > maximumCompatibilityLength {
                    errors.append(
                        "Compatibility exceeds \(maximumCompatibilityLength) character limit (\(count) chars)")
                }
            } else {
                errors.append("Field 'compatibility' must be a string")
            }
        }
        return errors
    }

    /// The name as the reference compares it: stripped of white space and NFKC-normalized.
    public static func normalizedName(_ name: String) -> String {
        // Fast path: a name of lowercase ASCII letters, digits and hyphens is its own normal form.
        if !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) {
            return name
        }
        return name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
    }

    static func validateName(_ value: JSONValue, folderName: String?) -> [String] {
        guard let raw = value.stringValue, !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return ["Field 'name' must be a non-empty string"]
        }
        var errors: [String] = []
        let name = normalizedName(raw)
        let length = name.unicodeScalars.count
        if length > maximumNameLength {
            errors.append("Skill name '\(name)' exceeds \(maximumNameLength) character limit (\(length) chars)")
        }
        if name != name.lowercased() { errors.append("Skill name '\(name)' must be lowercase") }
        if name.hasPrefix("-") || name.hasSuffix("-") {
            errors.append("Skill name cannot start or end with a hyphen")
        }
        if name.contains("--") { errors.append("Skill name cannot contain consecutive hyphens") }
        if !name.unicodeScalars.allSatisfy({ $0 == "-" || isAlphanumeric($0) }) {
            errors.append(
                "Skill name '\(name)' contains invalid characters. Only letters, digits, and hyphens are allowed.")
        }
        if let folderName, folderName.precomposedStringWithCompatibilityMapping != name {
            errors.append("Directory name '\(folderName)' must match skill name '\(name)'")
        }
        return errors
    }

    static func validateDescription(_ value: JSONValue) -> [String] {
        guard let text = value.stringValue, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return ["Field 'description' must be a non-empty string"]
        }
        let count = text.unicodeScalars.count
        if count > maximumDescriptionLength {
            return ["Description exceeds \(maximumDescriptionLength) character limit (\(count) chars)"]
        }
        return []
    }

    /// Python's `str.isalnum` for one character: a letter (Lu, Ll, Lt, Lm, Lo) or a numeric character.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return scalar.properties.numericType != nil
        }
    }

    /// The last component of `path` (as Python's `Path.name`).
    static func folderName(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if let slash = trimmed.lastIndex(of: "/") { return String(trimmed[trimmed.index(after: slash)...]) }
        return String(trimmed)
    }
}
