/// The files of a Swift plugin package (see ``PluginScaffold``).
struct SwiftPluginTemplate {
    let scaffold: PluginScaffold

    var files: [PluginScaffold.File] {
        let p = scaffold.typePrefix
        return [
            .init(path: "Package.swift", contents: packageManifest, isExecutable: false),
            .init(path: "skill_exports.map", contents: exportsMap, isExecutable: false),
            .init(path: "build.sh", contents: buildScript, isExecutable: true),
            .init(path: "README.md", contents: readme, isExecutable: false),
            .init(path: ".gitignore", contents: ".build/\nout/\n", isExecutable: false),
            .init(path: "Sources/\(p)Skills/\(p)Plugin.swift", contents: pluginValue, isExecutable: false),
            .init(path: "Sources/\(p)Skills/Greet.swift", contents: greetSkill, isExecutable: false),
            .init(path: "Sources/\(p)Plugin/Export.swift", contents: exportFile, isExecutable: false),
            .init(path: "Tests/\(p)SkillsTests/GreetTests.swift", contents: greetTests, isExecutable: false),
        ]
    }

    var packageManifest: String {
        let p = scaffold.typePrefix
        return #"""
            // swift-tools-version:6.0
            // The \#(scaffold.name) skill plugin for SkillHost (made by `skillhost new`).
            //
            //   ./build.sh          builds out/\#(scaffold.name).so (release) and runs `skillhost validate` on it
            //   swift test          runs the skills' unit tests, without a host
            //
            // Layout: one plugin = one thin export target, so several plugins can share this package and
            // `swift test` still links (two targets that each define skill_plugin_entry cannot link together):
            //   Sources/\#(p)Skills       the skills and the SkillPlugin value: a plain library
            //   Sources/\#(p)Plugin       only `skill_plugin_entry`: the dynamic library the host loads
            //   Tests/\#(p)SkillsTests    tests that depend on \#(p)Skills, never on an export target
            // A second plugin adds its own <Name>Skills + <Name>Plugin pair and one more product.
            import PackageDescription

            /// This folder, so the linker's version script is found from any working directory.
            let here: String = {
                var path = #filePath
                while let last = path.last, last != "/" { path.removeLast() }
                return String(path.dropLast())
            }()

            \#(sdkDeclaration)

            /// Every Swift plugin links like this: only `skill_plugin_entry` is exported (lld + version script).
            let exportOnlyTheEntryPoint: [LinkerSetting] = [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "--version-script=\(here)/skill_exports.map"]),
            ]

            let package = Package(
                name: "\#(p)",
                products: [
                    .library(name: "\#(p)Plugin", type: .dynamic, targets: ["\#(p)Plugin"]),
                ],
                dependencies: [
                    \#(sdkPackage),
                ],
                targets: [
                    .target(name: "\#(p)Skills", dependencies: [.product(name: "SkillSDK", package: skillHost)]),
                    .target(name: "\#(p)Plugin", dependencies: ["\#(p)Skills"], linkerSettings: exportOnlyTheEntryPoint),
                    .testTarget(
                        name: "\#(p)SkillsTests",
                        dependencies: ["\#(p)Skills", .product(name: "SkillSDK", package: skillHost),
                                       .product(name: "SkillCheck", package: skillHost)]),
                ]
            )

            """#
    }

    /// The Swift lines that name the SDK package (`skillHost`, its identity) and say where it comes from.
    var sdkDeclaration: String {
        switch scaffold.sdk {
        case .path(let location):
            return """
                /// The SkillHost SDK this plugin builds against (installed with SkillHost: `skillhost sdk path` prints
                /// it). SwiftPM names a path dependency after its folder: the products are in the package of that name.
                let sdkPath = "\(location.package)"
                let skillHost = "\(scaffold.sdk.packageIdentity)"
                """
        case .git(let url, let version):
            return """
                /// The SkillHost SDK this plugin builds against: the published package at this URL, version \(version) or a
                /// later compatible one. SwiftPM names a URL dependency after its last path component.
                let sdkURL = "\(url)"
                let skillHost = "\(scaffold.sdk.packageIdentity)"
                """
        }
    }

    /// The package dependency on the SDK.
    var sdkPackage: String {
        switch scaffold.sdk {
        case .path: ".package(path: sdkPath)"
        case .git(_, let version): ".package(url: sdkURL, from: \"\(version)\")"
        }
    }

    var exportsMap: String {
        """
        /* Linker version script: export only the ABI entry point; the SDK and Swift metadata stay private. */
        {
          global: skill_plugin_entry;
          local: *;
        };

        """
    }

    var buildScript: String {
        let p = scaffold.typePrefix
        let name = scaffold.name
        return #"""
            #!/bin/sh
            # Builds out/\#(name).so and checks it with `skillhost validate`.
            # Usage: ./build.sh [release|debug]     (release by default; debug builds faster)
            # Environment: SKILLHOST (the skillhost to validate with), SWIFT_SCRATCH_PATH (SwiftPM's build folder).
            set -eu
            cd "$(dirname "$0")"
            configuration=${1:-release}
            case "$configuration" in release|debug) ;; *) echo "build.sh: expected release or debug, got $configuration" >&2; exit 2 ;; esac
            \#(scaffold.findSkillhostShell)
            if [ -n "${SWIFT_SCRATCH_PATH:-}" ]; then set -- --scratch-path "$SWIFT_SCRATCH_PATH"; else set --; fi
            swift build -c "$configuration" --product \#(p)Plugin "$@"
            bin=$(swift build -c "$configuration" --show-bin-path "$@")
            mkdir -p out
            # Copy under a temporary name, then rename: a host scanning out/ never sees a half-written file.
            cp "$bin/lib\#(p)Plugin.so" out/.\#(name).so.tmp
            mv -f out/.\#(name).so.tmp out/\#(name).so
            "$skillhost" validate out/\#(name).so

            """#
    }

    var readme: String {
        #"""
        # \#(scaffold.name) — a SkillHost plugin

        ```sh
        ./build.sh                                   # out/\#(scaffold.name).so, validated
        swift test                                   # unit tests of the skills, no host needed
        skillhost --plugins out call \#(scaffold.name).greet '{"name": "Ada"}'   # run it from the build folder
        skillhost install out/\#(scaffold.name).so                 # validate, then replace the installed copy atomically
        skillhost pack . --key ~/.minisign/minisign.key     # out/\#(scaffold.name)-0.1.0.skillpkg, signed, to publish
        ```

        The guide is \#(scaffold.guide).

        """#
    }

    var pluginValue: String {
        let p = scaffold.typePrefix
        return #"""
            import SkillSDK

            /// The \#(scaffold.name) plugin: its id, version and skills. Sources/\#(p)Plugin exports it.
            public let \#(variableName) = SkillPlugin(
                id: "\#(scaffold.name)", name: "\#(p)", version: "0.1.0",
                description: "Greetings by name (a sample plugin made by skillhost new).",
                skills: [Greet()])

            """#
    }

    var variableName: String {
        let p = scaffold.typePrefix
        return p.prefix(1).lowercased() + p.dropFirst() + "Plugin"
    }

    var greetSkill: String {
        #"""
        import SkillSDK

        /// `\#(scaffold.name).greet`: a greeting for someone, friendly or formal. A `SynchronousSkill`: its work
        /// never waits, so it writes `run` and the SDK calls it without a task. Write a `Skill` with an async
        /// `execute` instead for work that waits (network, sleeps, subprocesses) or uses session values.
        struct Greet: SynchronousSkill {
            struct Arguments: Decodable {
                var name: String
                var tone: String?
                var exclamations: Int?
            }

            struct Output: Encodable, Equatable {
                var greeting: String
            }

            let name = "greet"
            let title = "Greet someone"
            let description = "\#(scaffold.sampleDescription)"
            let parameters = ParameterSchema.object(
                [
                    "name": .string("Who to greet", minLength: 1, maxLength: 100),
                    "tone": .string("How to greet (default friendly)", oneOf: ["friendly", "formal"]),
                    "exclamations": .integer("How many exclamation marks (default 1)", minimum: 0, maximum: 5),
                ], required: ["name"])
            let timeout = 5.0
            let examples = ["greet {name}", "say hello to {name}", "write a greeting for {name}", "greet {name} formally"]
            let summary: String? = "{greeting}"

            func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
                guard arguments.name.contains(where: { !$0.isWhitespace }) else {
                    throw SkillError.invalidArguments(field: "/name", message: "the name is blank", remedy: "give the person's name")
                }
                let marks = String(repeating: "!", count: arguments.exclamations ?? 1)
                switch arguments.tone ?? "friendly" {
                case "formal": return Output(greeting: "Good day, \(arguments.name)\(marks.isEmpty ? "." : marks)")
                default: return Output(greeting: "Hello, \(arguments.name)\(marks)")
                }
            }
        }

        """#
    }

    var exportFile: String {
        let p = scaffold.typePrefix
        return #"""
            // The plugin's one exported symbol. Keep this target this thin: skills live in \#(p)Skills.
            import \#(p)Skills
            import SkillSDK

            @_cdecl("skill_plugin_entry")
            public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
                \#(variableName).export(major, minor, host)
            }

            """#
    }

    var greetTests: String {
        let p = scaffold.typePrefix
        return #"""
            import SkillCheck
            import SkillSDK
            import Testing

            @testable import \#(p)Skills

            /// The skill, called directly with a context made for tests: no host, no plugin file.
            @Suite struct GreetTests {
                let context = SkillContext()

                @Test func greetsByName() async throws {
                    let output = try await Greet().execute(.init(name: "Ada"), context: context)
                    #expect(output == .init(greeting: "Hello, Ada!"))
                }

                @Test func formalWithoutExclamations() async throws {
                    let output = try await Greet().execute(.init(name: "Ada", tone: "formal", exclamations: 0), context: context)
                    #expect(output.greeting == "Good day, Ada.")
                }

                @Test func blankNameIsAnInvalidArgument() async throws {
                    await #expect(throws: SkillError.self) {
                        try await Greet().execute(.init(name: "  "), context: context)
                    }
                }

                @Test func argumentsDecodeFromJSON() throws {
                    let arguments = try Greet.decodeArguments(["name": "Ada", "tone": "formal"])
                    #expect(arguments.tone == "formal")
                }

                @Test func manifestHasNoProblems() {
                    #expect(\#(variableName).problems == [])
                }
            }

            """#
    }
}
