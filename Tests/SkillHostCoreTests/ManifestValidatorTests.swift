import Foundation
import JSONSchema
@testable import SkillHostCore
import SkillJSON
import Testing

@Suite("Manifest checks")
struct ManifestValidatorTests {
    static let file = "/plugins/example.so"

    /// A valid manifest that each test breaks in one place.
    static func manifest(_ change: (inout JSONObject) -> Void = { _ in }) -> JSONValue {
        let skill: JSONObject = [
            "id": "example.run", "title": "Run", "description": "Runs the example.",
            "parameters": ["type": "object", "properties": ["n": ["type": "integer"]], "required": ["n"]],
            "permission": "read", "timeout": 5, "idempotent": true, "examples": ["run {n}"],
        ]
        var root: JSONObject = [
            "id": "example", "name": "Example", "version": "1.0.0", "abi_version": "1.0",
            "description": "An example.", "skills": [.object(skill)],
        ]
        change(&root)
        return .object(root)
    }

    static func problems(_ document: JSONValue) -> [ManifestProblem] {
        do {
            _ = try ManifestValidator.validate(document, file: file)
            return []
        } catch {
            #expect(error.file == file)
            return error.problems
        }
    }

    static func setSkill(_ root: inout JSONObject, _ key: String, _ value: JSONValue?) {
        guard case .array(var skills)? = root["skills"], case .object(var skill) = skills[0] else { return }
        skill[key] = value
        skills[0] = .object(skill)
        root["skills"] = .array(skills)
    }

    @Test("a valid manifest passes with its ids as written and defaults")
    func validManifest() throws {
        let document = Self.manifest { root in
            Self.setSkill(&root, "timeout", nil)
            Self.setSkill(&root, "examples", nil)
        }
        let manifest = try ManifestValidator.validate(document, file: Self.file)
        #expect(manifest.id == "example")
        #expect(manifest.skills.map(\.id) == ["example.run"])
        #expect(manifest.skills[0].timeout == 30)
        #expect(manifest.skills[0].examples.isEmpty)
        #expect(manifest.threadSafe == false)
        #expect(manifest.skills[0].permission == .read)
    }

    @Test("missing required members are each reported with their place")
    func missingMembers() {
        let problems = Self.problems(Self.manifest { root in
            root["version"] = nil
            Self.setSkill(&root, "permission", nil)
        })
        #expect(problems.contains { $0.pointer == "" && $0.message.contains("\"version\"") })
        #expect(problems.contains { $0.pointer == "/skills/0" && $0.skillID == "example.run" && $0.message.contains("\"permission\"") })
    }

    @Test("bad semver, bad ABI, bad permission and bad timeout name pointer, skill and fix")
    func badValues() {
        let problems = Self.problems(Self.manifest { root in
            root["version"] = "1.0"
            root["abi_version"] = "2.0"
            Self.setSkill(&root, "permission", "admin")
            Self.setSkill(&root, "timeout", -1)
        })
        let byPointer = Dictionary(problems.map { ($0.pointer, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byPointer["/version"]?.message.contains("semantic version") == true)
        #expect(byPointer["/abi_version"]?.message.contains("not supported") == true)
        #expect(byPointer["/skills/0/permission"]?.message.contains("read, write, dangerous") == true)
        #expect(byPointer["/skills/0/permission"]?.skillID == "example.run")
        #expect(byPointer["/skills/0/timeout"] != nil)
        let error = ManifestError(file: Self.file, problems: problems)
        #expect(error.description.hasPrefix(Self.file + ": "))
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains("manifest /skills/0/permission (skill example.run)"))
    }

    @Test("a skill's summary template is read when it is a string and absent otherwise")
    func summaryTemplate() throws {
        let plain = try ManifestValidator.validate(Self.manifest(), file: Self.file)
        #expect(plain.skills[0].summary == nil)
        let document = Self.manifest { Self.setSkill(&$0, "summary", "Ran {n} times.") }
        let manifest = try ManifestValidator.validate(document, file: Self.file)
        #expect(manifest.skills[0].summary == "Ran {n} times.")
    }

    @Test("a summary that is not a non-empty string names its pointer, skill and fix", arguments: [
        JSONValue.int(42), ["It is {time}."], .string("  "), .null,
    ])
    func badSummary(value: JSONValue) {
        let problems = Self.problems(Self.manifest { Self.setSkill(&$0, "summary", value) })
        let problem = problems.first { $0.pointer == "/skills/0/summary" }
        #expect(problem?.skillID == "example.run")
        #expect(problem?.message.contains("non-empty string") == true)
        #expect(problem?.message.contains("{time}") == true)
    }

    @Test("semantic versions follow semver.org", arguments: [
        ("1.0.0", true), ("0.1.2-alpha.1+build.5", true), ("10.20.30", true), ("1.0", false), ("01.0.0", false),
        ("1.0.0-", false), ("1.0.0-01", false), ("v1.0.0", false), ("1.0.0+", false),
    ])
    func semver(text: String, valid: Bool) {
        #expect(SemanticVersion.isValid(text) == valid)
    }

    @Test("parameters must be an object schema")
    func parametersNotObjectSchema() {
        let notObject = Self.problems(Self.manifest { Self.setSkill(&$0, "parameters", ["type": "string"]) })
        #expect(notObject.contains { $0.pointer == "/skills/0/parameters/type" && $0.skillID == "example.run" })
        let notSchema = Self.problems(Self.manifest { Self.setSkill(&$0, "parameters", "x") })
        #expect(notSchema.contains { $0.pointer == "/skills/0/parameters" })
    }

    @Test("parameters must be a valid draft 2020-12 schema; the fault's pointer is inside parameters")
    func parametersInvalidSchema() {
        let problems = Self.problems(Self.manifest {
            Self.setSkill(&$0, "parameters", ["type": "object", "properties": ["n": ["type": "integr"]]])
        })
        #expect(problems.count == 1)
        #expect(problems.first?.pointer.hasPrefix("/skills/0/parameters/properties/n") == true)
        #expect(problems.first?.skillID == "example.run")
        #expect(problems.first?.message.contains("not a valid draft 2020-12 schema") == true)
    }

    @Test("the shipped manifest schema itself accepts a valid manifest and rejects a broken one")
    func manifestSchemaBackstop() throws {
        let schema = try #require(ManifestSchema.compiled)
        #expect(schema.isValid(Self.manifest()))
        #expect(!schema.isValid(Self.manifest { Self.setSkill(&$0, "permission", "admin") }))
        #expect(!schema.isValid(Self.manifest { $0["version"] = "1.0" }))
        #expect(!schema.isValid(Self.manifest { $0["skills"] = [] }))
    }

    @Test("a skill id must start with the plugin id and have a one-segment name")
    func skillPrefix() {
        let wrong = Self.problems(Self.manifest { Self.setSkill(&$0, "id", "other.run") })
        #expect(wrong.contains { $0.pointer == "/skills/0/id" && $0.message.contains("\"example.<name>\"") })
        let dotted = Self.problems(Self.manifest { Self.setSkill(&$0, "id", "example.a.b") })
        #expect(dotted.contains { $0.pointer == "/skills/0/id" && $0.message.contains("one segment") })
    }

    @Test("two skills with one id are duplicates")
    func duplicateSkills() {
        let problems = Self.problems(Self.manifest { root in
            guard case .array(let skills)? = root["skills"] else { return }
            root["skills"] = .array(skills + skills)
        })
        #expect(problems.contains { $0.pointer == "/skills/1/id" && $0.message.contains("/skills/0/id") })
    }

    /// The plugin receives the id exactly as its manifest wrote it, so a manifest must write canonical ids:
    /// one in upper case (or with invisible characters) would be listed under a form the plugin does not know.
    @Test("ids in upper case or with invisible characters are refused with the canonical form to write")
    func nonCanonicalIDs() {
        let problems = Self.problems(Self.manifest { root in
            root["id"] = "UpperID"
            Self.setSkill(&root, "id", "UpperID.ShoutText")
        })
        #expect(problems.contains { $0.pointer == "/id" && $0.message.contains("write \"upperid\"") })
        #expect(problems.contains { $0.pointer == "/skills/0/id" && $0.message.contains("write \"upperid.shouttext\"") })
        let invisible = Self.problems(Self.manifest { $0["id"] = "example\u{200B}" })
        #expect(invisible.contains { $0.pointer == "/id" && $0.message.contains("\\u{200B}") })
    }

    @Test("an id longer than 128 bytes is refused")
    func longID() {
        let long = String(repeating: "a", count: 129)
        let problems = Self.problems(Self.manifest { $0["id"] = .string(long) })
        #expect(problems.contains { $0.pointer == "/id" && $0.message.contains("longer than 128 bytes") })
    }

    @Test("every fault of a parameters schema is reported, not only the first")
    func everySchemaFault() {
        let problems = Self.problems(Self.manifest { root in
            Self.setSkill(&root, "parameters", [
                "type": "object", "required": ["n", "ghost"], "additionalProperties": false,
                "properties": ["n": ["type": "integr"], "s": ["type": "string", "pattern": "(unclosed"],
                               "t": ["type": "string", "pattern": "[z-a]"]],
            ])
        })
        let pointers = Set(problems.map(\.pointer))
        #expect(pointers.isSuperset(of: [
            "/skills/0/parameters/required/1", "/skills/0/parameters/properties/n/type",
            "/skills/0/parameters/properties/s/pattern", "/skills/0/parameters/properties/t/pattern",
        ]), "\(problems)")
    }

    @Test("an example slot that names no parameter is a problem")
    func exampleSlots() {
        let problems = Self.problems(Self.manifest { Self.setSkill(&$0, "examples", ["run {n} with {speed}"]) })
        #expect(problems.contains { $0.pointer == "/skills/0/examples/0" && $0.message.contains("{speed}") })
    }

    @Test("ids that break the grammar after normalization are rejected")
    func badID() {
        let problems = Self.problems(Self.manifest { $0["id"] = "my plugin" })
        #expect(problems.contains { $0.pointer == "/id" && $0.message.contains("my plugin") })
    }

    @Test("manifest text that is not JSON reports line and column")
    func notJSON() {
        do {
            _ = try ManifestValidator.validate(bytes: Array("{\"id\": }".utf8), file: Self.file)
            Issue.record("expected a failure")
        } catch {
            #expect(error.problems.first?.message.contains("line 1, column 8") == true)
        }
    }

    @Test("the embedded manifest schema is byte for byte the shipped file")
    func embeddedSchemaMatchesFile() throws {
        let file = HostTestSupport.packageRoot + "/Sources/ManifestCheck/Resources/manifest.schema.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == ManifestSchema.text)
        #expect((try? JSONValue(parsing: ManifestSchema.text)) != nil)
    }
}

/// `output_schema`: optional, checked like `parameters`, every fault with its JSON pointer.
@Suite("Manifest output_schema")
struct ManifestOutputSchemaTests {
    typealias Base = ManifestValidatorTests

    @Test("absent is fine and reads as nil; a valid one is kept as written")
    func validOrAbsent() throws {
        #expect(try ManifestValidator.validate(Base.manifest(), file: Base.file).skills[0].outputSchema == nil)
        let schema: JSONValue = ["type": "object", "properties": ["time": ["type": "string"]], "required": ["time"]]
        let document = Base.manifest { Base.setSkill(&$0, "output_schema", schema) }
        #expect(try ManifestValidator.validate(document, file: Base.file).skills[0].outputSchema == schema)
    }

    @Test("every fault is reported with its JSON pointer under /skills/0/output_schema")
    func faults() {
        let notObject = Base.problems(Base.manifest { Base.setSkill(&$0, "output_schema", "string") })
        #expect(notObject.contains { $0.pointer.hasPrefix("/skills/0/output_schema") })
        let rootNotObject = Base.problems(Base.manifest { Base.setSkill(&$0, "output_schema", ["type": "array"]) })
        #expect(rootNotObject.contains { $0.pointer == "/skills/0/output_schema/type" && $0.message.contains("root of output_schema") })
        let several = Base.problems(Base.manifest {
            Base.setSkill(&$0, "output_schema", [
                "type": "object", "properties": ["a": ["type": "strnig"], "b": ["minimum": "x"]], "required": ["c"],
            ])
        })
        #expect(several.contains { $0.pointer == "/skills/0/output_schema/required/0" && $0.message.contains("required result \"c\"") })
        #expect(several.contains { $0.pointer.hasPrefix("/skills/0/output_schema/properties/a") })
        #expect(several.contains { $0.pointer.hasPrefix("/skills/0/output_schema/properties/b") })
        #expect(several.allSatisfy { !$0.description.contains("\n") })
    }
}
