import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Project skills (issue #30, the client-implementation guide): a working folder's `.agents/skills/` and
/// `.claude/skills/` load only once the user trusts the folder; a project's skill wins over the user's of the
/// same name, `.agents` over `.claude`, each collision one warning line naming both paths.
@Suite("Instruction project skills")
struct InstructionProjectSkillsTests {
    final class Scene {
        let root = HostTestSupport.temporaryDirectory("skillhost-project-skills")
        var project: String { root + "/project" }
        let host: SkillHost

        init() throws {
            var paths = HostTestSupport.paths(root: root)
            paths.project = root + "/project"
            host = SkillHost(paths: paths, helperExecutable: try HostTestSupport.skillhostBinary())
            try skill("notes", "Your notes skill.", in: root + "/skills")
            try skill("notes", "The project's notes skill.", in: project + "/.agents/skills")
            try skill("notes", "Claude's notes skill.", in: project + "/.claude/skills")
            try skill("lint", "Lints this project.", in: project + "/.claude/skills")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func skill(_ name: String, _ description: String, in folder: String) throws {
            try HostTestSupport.write("---\nname: \(name)\ndescription: \(description)\n---\nBody of \(description)\n", to: "\(folder)/\(name)/SKILL.md")
        }

        var loaded: [String] { ((try? host.catalog().instructions) ?? []).map { "\($0.id) \($0.scope.rawValue) \($0.description)" } }
    }

    @Test func anUntrustedProjectsSkillsAreNotLoadedAndListSaysHowToTrustIt() throws {
        let scene = try Scene()
        let catalog = try scene.host.catalog()
        #expect(scene.loaded == ["notes user Your notes skill."])
        #expect(catalog.untrustedProject == scene.project)
        #expect(catalog.notes == [
            "the project skills in \(scene.project) (.agents/skills, .claude/skills) are not loaded: the folder is not trusted; after reading them, run 'skillhost trust --folder \(scene.project)' to load them",
        ])
        #expect(catalog.json["notes"]?.arrayValue?.count == 1)
    }

    @Test func aTrustedProjectsSkillsWinOverTheUsersAndAgentsOverClaude() throws {
        let scene = try Scene()
        let change = try scene.host.trustFolder(scene.project)
        #expect(change.trusted && !change.wasTrusted)
        #expect(change.skillFolders == [scene.project + "/.agents/skills", scene.project + "/.claude/skills"])
        #expect(try scene.host.registryStore.read().trustedFolders == [scene.project])
        #expect(scene.loaded == ["notes project The project's notes skill.", "lint project Lints this project."])
        let catalog = try scene.host.catalog()
        #expect(catalog.untrustedProject == nil)
        let winner = scene.project + "/.agents/skills/notes"
        #expect(catalog.notes == [
            "instruction skill \"notes\": \(winner) wins over \(scene.project)/.claude/skills/notes (a trusted project's skills win over your skills folder's, and .agents/skills over .claude/skills); rename one to keep both",
            "instruction skill \"notes\": \(winner) wins over \(scene.root)/skills/notes (a trusted project's skills win over your skills folder's, and .agents/skills over .claude/skills); rename one to keep both",
        ])
        // The same every time (the order of the folders decides, not the order of listing).
        #expect(try scene.host.catalog() == catalog)
        #expect(try scene.host.instructionSkill("notes").body.contains("The project's notes skill."))
        // A project's skill is the project's: remove refuses it, in one line naming the fix.
        do {
            try scene.host.removeSkill("lint")
            Issue.record("removed a project's skill")
        } catch {
            #expect(error.kind == .denied)
            #expect(error.message.contains("--revoke"), "\(error.message)")
            #expect(FileManager.default.fileExists(atPath: scene.project + "/.claude/skills/lint/SKILL.md"))
        }
        // Revoked: the user's skill again; the reused catalog sees it (the registry is an input).
        _ = try scene.host.currentCatalog()
        let revoked = try scene.host.trustFolder(scene.project, revoke: true)
        #expect(!revoked.trusted && revoked.wasTrusted)
        #expect(try scene.host.currentCatalog().instructions.map(\.description) == ["Your notes skill."])
    }

    @Test func aLinkToTheProjectIsTheSameTrustedFolder() throws {
        let scene = try Scene()
        try FileManager.default.createSymbolicLink(atPath: scene.root + "/link", withDestinationPath: scene.project)
        let change = try scene.host.trustFolder(scene.root + "/link")
        #expect(change.folder == scene.project)
        #expect(scene.loaded.contains("lint project Lints this project."))
    }

    @Test func badTrustInputIsOneLineWithTheFix() throws {
        let scene = try Scene()
        for path in [scene.root + "/missing", scene.root + "/skills/notes/SKILL.md"] {
            do {
                try scene.host.trustFolder(path)
                Issue.record("trusted \(path)")
            } catch {
                #expect(error.kind == .notFound)
                #expect(error.message == "\(path) is not a folder; give the project folder that holds .agents/skills or .claude/skills (e.g. 'skillhost trust --folder .')")
            }
        }
        for (document, pointer) in [(#"{"trusted_folders": "/x"}"#, "/trusted_folders must be a list"), (#"{"trusted_folders": ["relative"]}"#, "/trusted_folders/0 must be an absolute folder path")] {
            try HostTestSupport.write(document, to: scene.host.paths.registry)
            do {
                _ = try scene.host.registryStore.read()
                Issue.record("read \(document)")
            } catch {
                #expect(error.kind == .registry)
                #expect(error.message.hasPrefix("\(scene.host.paths.registry): \(pointer)"), "\(error.message)")
                #expect(error.message.hasSuffix("; fix the file by hand"))
            }
        }
    }
}
