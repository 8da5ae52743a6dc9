import SkillJSON

/// The files of a C plugin package (see ``PluginScaffold``): one C99 file against `skill_abi.h` and
/// `skill_json.h`, a test program that calls it without the host, and `build.sh`.
struct CPluginTemplate {
    let scaffold: PluginScaffold

    var files: [PluginScaffold.File] {
        let name = scaffold.name
        return [
            .init(path: "\(name).c", contents: pluginSource, isExecutable: false),
            .init(path: "\(name)_test.c", contents: testSource, isExecutable: false),
            .init(path: "build.sh", contents: buildScript, isExecutable: true),
            .init(path: "README.md", contents: readme, isExecutable: false),
            .init(path: ".gitignore", contents: "out/\n", isExecutable: false),
        ]
    }

    /// A C identifier from the plugin name.
    var symbol: String { String(scaffold.name.map { $0 == "-" ? "_" : $0 }) }

    /// The manifest, as data, so it is valid JSON by construction.
    var manifest: JSONValue {
        [
            "id": .string(scaffold.name), "name": .string(scaffold.typePrefix), "version": "0.1.0",
            "abi_version": "1.0",
            "description": "Greetings by name (a sample plugin made by skillhost new).",
            "thread_safe": true,
            "skills": [
                [
                    "id": .string(scaffold.name + ".greet"), "title": "Greet someone",
                    "description": .string(scaffold.sampleDescription),
                    "parameters": [
                        "type": "object",
                        "properties": [
                            "name": ["type": "string", "description": "Who to greet", "minLength": 1, "maxLength": 100],
                            "tone": [
                                "type": "string", "description": "How to greet (default friendly)",
                                "enum": ["friendly", "formal"],
                            ],
                            "exclamations": [
                                "type": "integer", "description": "How many exclamation marks (default 1)",
                                "minimum": 0, "maximum": 5,
                            ],
                        ],
                        "required": ["name"], "additionalProperties": false,
                    ],
                    "permission": "read", "timeout": 5, "idempotent": true,
                    "examples": ["greet {name}", "say hello to {name}", "write a greeting for {name}", "greet {name} formally"],
                    "summary": "{greeting}",
                ]
            ],
        ]
    }

    /// The manifest as a C string literal, one line per 90 characters of JSON.
    var manifestLiteral: String {
        let json = manifest.serialized()
        var lines: [String] = []
        var current = ""
        for character in json {
            switch character {
            case "\"": current += "\\\""
            case "\\": current += "\\\\"
            default: current.append(character)
            }
            if current.count >= 90 {
                lines.append("    \"" + current + "\"")
                current = ""
            }
        }
        if !current.isEmpty { lines.append("    \"" + current + "\"") }
        return lines.joined(separator: "\n")
    }

    var pluginSource: String {
        let name = scaffold.name
        return #"""
            /*
             * \#(name).c — the \#(name) skill plugin in C99 (made by `skillhost new`).
             *
             * Reads its arguments and writes its result with skill_json.h; exports only skill_plugin_entry.
             * Thread-safe: each call uses only its own stack and the result buffer, so "thread_safe" is true.
             * Memory: the result buffer is malloc'd by the writer and freed by skill_json_free_result when the
             * host hands it back; nothing else is allocated.
             */
            #include "skill_abi.h"
            #include "skill_json.h"

            #include <stdio.h>
            #include <string.h>

            static const char \#(symbol)_manifest[] =
            \#(manifestLiteral);

            /* \#(name).greet: {"name": string, "tone"?: "friendly"|"formal", "exclamations"?: 0..5} -> {"greeting"} */
            static skill_status \#(symbol)_greet(const char *arguments, size_t length, skill_json_writer *out) {
                char name[128], tone[16] = "friendly", greeting[192];
                long long exclamations = 1;
                switch (skill_json_get_string(arguments, length, "/name", name, sizeof name, NULL)) {
                case SKILL_JSON_OK: break;
                case SKILL_JSON_TOO_LONG:
                    skill_json_error(out, "the name is longer than 127 bytes", "/name", "give a shorter name");
                    return SKILL_STATUS_INVALID_ARGUMENTS;
                default:
                    skill_json_error(out, "name is missing or not a string", "/name", "pass {\"name\": \"Ada\"}");
                    return SKILL_STATUS_INVALID_ARGUMENTS;
                }
                switch (skill_json_get_string(arguments, length, "/tone", tone, sizeof tone, NULL)) {
                case SKILL_JSON_OK:
                case SKILL_JSON_ABSENT: break;
                default:
                    skill_json_error(out, "tone must be \"friendly\" or \"formal\"", "/tone", NULL);
                    return SKILL_STATUS_INVALID_ARGUMENTS;
                }
                switch (skill_json_get_integer(arguments, length, "/exclamations", &exclamations)) {
                case SKILL_JSON_OK:
                case SKILL_JSON_ABSENT: break;
                default:
                    skill_json_error(out, "exclamations must be a whole number", "/exclamations", "use 0 to 5");
                    return SKILL_STATUS_INVALID_ARGUMENTS;
                }
                if (exclamations < 0 || exclamations > 5) {
                    skill_json_error(out, "exclamations is out of range", "/exclamations", "use 0 to 5");
                    return SKILL_STATUS_INVALID_ARGUMENTS;
                }
                if (strcmp(tone, "formal") == 0) {
                    snprintf(greeting, sizeof greeting, "Good day, %s%.*s", name, exclamations == 0 ? 1 : (int)exclamations,
                             exclamations == 0 ? "." : "!!!!!");
                } else {
                    snprintf(greeting, sizeof greeting, "Hello, %s%.*s", name, (int)exclamations, "!!!!!");
                }
                skill_json_begin_object(out);
                skill_json_member_string(out, "greeting", greeting);
                skill_json_end_object(out);
                return SKILL_STATUS_OK;
            }

            /* [any-thread] [blocking-ok] */
            static skill_status \#(symbol)_invoke(const skill_plugin_descriptor *plugin, const char *skill_id,
                                                   const char *arguments, size_t arguments_length,
                                                   const skill_call_context *context, skill_result *result) {
                skill_json_writer out;
                skill_status status;
                (void)plugin;
                (void)context;
                if (result == NULL || result->struct_size < sizeof(skill_result)) return SKILL_STATUS_INTERNAL;
                skill_json_writer_init(&out);
                if (arguments == NULL) {
                    arguments = "{}";
                    arguments_length = 2;
                }
                if (skill_id != NULL && strcmp(skill_id, "\#(name).greet") == 0) {
                    status = \#(symbol)_greet(arguments, arguments_length, &out);
                } else {
                    status = SKILL_STATUS_NOT_FOUND;
                    skill_json_error(&out, "no such skill in plugin \#(name); it has \#(name).greet", NULL, NULL);
                }
                return skill_json_finish_result(&out, status, result);
            }

            static const skill_plugin_descriptor \#(symbol)_descriptor = {
                SKILL_ABI_MAGIC, SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, sizeof(skill_plugin_descriptor), 0,
                \#(symbol)_manifest, sizeof \#(symbol)_manifest - 1, \#(symbol)_invoke, skill_json_free_result,
            };

            SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                                           const skill_host_api *host) {
                (void)host_abi_minor;
                (void)host;
                return host_abi_major == SKILL_ABI_VERSION_MAJOR ? &\#(symbol)_descriptor : NULL;
            }

            """#
    }

    var testSource: String {
        let name = scaffold.name
        return #"""
            /*
             * \#(name)_test.c — calls the plugin through its descriptor, as the host would, without the host.
             * Built and run by build.sh; exits non-zero when a check fails.
             */
            #include "\#(name).c"

            #include <stdlib.h>

            static int failures;

            #define CHECK(condition)                                                          \
                do {                                                                          \
                    if (!(condition)) {                                                       \
                        failures++;                                                           \
                        printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #condition);           \
                    }                                                                         \
                } while (0)

            /* Calls `skill` with `arguments`; copies the result's "greeting" (or "field" on error) into `text`. */
            static skill_status call(const char *skill, const char *arguments, const char *member, char *text, size_t size) {
                const skill_plugin_descriptor *plugin = skill_plugin_entry(SKILL_ABI_VERSION_MAJOR, 0, NULL);
                skill_call_context context;
                skill_result result;
                skill_status status;
                memset(&context, 0, sizeof context);
                context.struct_size = sizeof context;
                memset(&result, 0, sizeof result);
                result.struct_size = sizeof result;
                status = plugin->invoke(plugin, skill, arguments, strlen(arguments), &context, &result);
                text[0] = '\0';
                if (result.json != NULL) skill_json_get_string(result.json, result.json_length, member, text, size, NULL);
                plugin->free_result(plugin, &result);
                return status;
            }

            int main(void) {
                char text[256];
                CHECK(skill_plugin_entry(SKILL_ABI_VERSION_MAJOR + 1, 0, NULL) == NULL);
                CHECK(call("\#(name).greet", "{\"name\":\"Ada\"}", "/greeting", text, sizeof text) == SKILL_STATUS_OK);
                CHECK(strcmp(text, "Hello, Ada!") == 0);
                CHECK(call("\#(name).greet", "{\"name\":\"Ada\",\"tone\":\"formal\",\"exclamations\":0}", "/greeting", text,
                           sizeof text) == SKILL_STATUS_OK);
                CHECK(strcmp(text, "Good day, Ada.") == 0);
                CHECK(call("\#(name).greet", "{}", "/field", text, sizeof text) == SKILL_STATUS_INVALID_ARGUMENTS);
                CHECK(strcmp(text, "/name") == 0);
                CHECK(call("\#(name).greet", "{\"name\":", "/field", text, sizeof text) == SKILL_STATUS_INVALID_ARGUMENTS);
                CHECK(call("\#(name).nope", "{}", "/message", text, sizeof text) == SKILL_STATUS_NOT_FOUND);
                if (failures > 0) return 1;
                printf("\#(name)_test: all checks passed\n");
                return 0;
            }

            """#
    }

    var buildScript: String {
        let name = scaffold.name
        return #"""
            #!/bin/sh
            # Builds out/\#(name).so (-O2), runs \#(name)_test.c against the same code, and checks the plugin with
            # `skillhost validate`. Usage: ./build.sh     Environment: SKILLHOST, CC, SKILLHOST_INCLUDE, PKG_CONFIG_PATH.
            set -eu
            cd "$(dirname "$0")"
            \#(scaffold.findSkillhostShell)
            # The headers (skill_abi.h, skill_json.h): $SKILLHOST_INCLUDE, else pkg-config, else `skillhost sdk path`.
            \#(defaultInclude)if [ -n "${SKILLHOST_INCLUDE:-}" ]; then
                headers="-I$SKILLHOST_INCLUDE"
            elif headers=$(pkg-config --cflags skillhost 2>/dev/null); then
                :
            else
                include=$("$skillhost" sdk path --include) || { echo "build.sh: no SkillHost headers: install SkillHost, set PKG_CONFIG_PATH to its lib/pkgconfig, or set SKILLHOST_INCLUDE" >&2; exit 2; }
                headers="-I$include"
            fi
            strict="-std=c99 -pedantic -Wall -Wextra -Werror"
            mkdir -p out
            # shellcheck disable=SC2086
            ${CC:-cc} $strict -O2 -fPIC -shared -fvisibility=hidden $headers \#(name).c -o out/.\#(name).so.tmp
            mv -f out/.\#(name).so.tmp out/\#(name).so
            # shellcheck disable=SC2086
            ${CC:-cc} $strict -g $headers \#(name)_test.c -o out/\#(name)_test
            ./out/\#(name)_test
            "$skillhost" validate out/\#(name).so

            """#
    }

    /// The `SKILLHOST_INCLUDE` default line when `--sdk PATH` named the headers' SDK; empty otherwise.
    var defaultInclude: String {
        guard case .path(let location) = scaffold.sdk, location.source == .option else { return "" }
        return "SKILLHOST_INCLUDE=${SKILLHOST_INCLUDE:-\(location.include)}\n"
    }

    var readme: String {
        #"""
        # \#(scaffold.name) — a SkillHost plugin in C

        ```sh
        ./build.sh                                   # out/\#(scaffold.name).so, unit-tested and validated
        skillhost --plugins out call \#(scaffold.name).greet '{"name": "Ada"}'   # run it from the build folder
        skillhost install out/\#(scaffold.name).so                 # validate, then replace the installed copy atomically
        skillhost pack . --key ~/.minisign/minisign.key     # out/\#(scaffold.name)-0.1.0.skillpkg, signed, to publish
        ```

        Headers: skill_abi.h (the ABI) and skill_json.h (reading arguments, writing results), installed with
        SkillHost: `pkg-config --cflags skillhost` (with PKG_CONFIG_PATH=<prefix>/lib/pkgconfig when SkillHost
        is not in a system prefix) or `skillhost sdk path --include`. The guide is \#(scaffold.guide).

        """#
    }
}
