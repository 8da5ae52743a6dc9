import SkillJSON

/// The manifest schema (`Sources/ManifestCheck/Resources/manifest.schema.json`), embedded so the library
/// needs no resource bundle. A test checks that this text and the file are identical: edit both together.
/// The timeout's maximum and default come from ``SkillDefaults`` (the file repeats them for readers).
public enum ManifestSchema {
    /// The schema's JSON text, byte for byte the shipped file.
    public static let text: String = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://skillhost.dev/schemas/manifest/1.json",
  "title": "SkillHost plugin manifest (ABI 1)",
  "description": "The JSON a plugin returns through skill_plugin_descriptor.manifest_json. See docs/manifest.md.",
  "type": "object",
  "required": ["id", "name", "version", "abi_version", "description", "skills"],
  "properties": {
    "id": {"type": "string", "minLength": 1, "description": "Plugin id; normalized (docs/ids.md), then [a-z0-9_-] segments joined by dots."},
    "name": {"type": "string", "minLength": 1},
    "version": {
      "type": "string",
      "description": "Semantic version 2.0.0.",
      "pattern": "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-((0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(\\+([0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*))?$"
    },
    "abi_version": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+$"},
    "min_host_abi": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+$", "description": "The oldest host ABI MAJOR.MINOR the plugin runs on: it uses what that minor added. Absent: any 1.x."},
    "description": {"type": "string", "minLength": 1},
    "thread_safe": {"type": "boolean", "default": false},
    "capabilities": {"$ref": "#/$defs/capabilities"},
    "skills": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/skill"}}
  },
  "$defs": {
    "skill": {
      "type": "object",
      "required": ["id", "title", "description", "parameters", "permission", "idempotent"],
      "properties": {
        "id": {"type": "string", "minLength": 1, "description": "<plugin id>.<name>"},
        "title": {"type": "string", "minLength": 1},
        "description": {"type": "string", "minLength": 1},
        "parameters": {
          "type": "object",
          "description": "A draft 2020-12 JSON Schema whose root is an object schema.",
          "required": ["type"],
          "properties": {"type": {"const": "object"}}
        },
        "permission": {"enum": ["read", "write", "dangerous"]},
        "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": \#(Int(SkillDefaults.maximumTimeout)), "default": \#(Int(SkillDefaults.timeout))},
        "idempotent": {"type": "boolean"},
        "examples": {"type": "array", "items": {"type": "string"}},
        "summary": {"type": "string", "minLength": 1, "description": "One-line result summary; {field} is a member of the result, {a.b} a nested one, {items.count} an array's length."},
        "capabilities": {"$ref": "#/$defs/capabilities", "description": "A subset of the plugin's capabilities."},
        "output_schema": {
          "type": "object",
          "description": "A draft 2020-12 JSON Schema whose root is an object schema: every result conforms to it (MCP outputSchema).",
          "required": ["type"],
          "properties": {"type": {"const": "object"}}
        }
      }
    },
    "capabilities": {
      "type": "object",
      "description": "What the sandboxed worker may touch (docs/manifest.md, Capabilities). Absent: the data folder only.",
      "additionalProperties": false,
      "properties": {
        "filesystem": {
          "type": "array",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": ["root", "access"],
            "properties": {
              "root": {"enum": ["data", "config", "home"]},
              "key": {"type": "string", "minLength": 1, "description": "For root config: the configuration member holding the path."},
              "path": {"type": "string", "minLength": 1, "description": "For root home: a path relative to the home folder, without .."},
              "access": {"enum": ["read", "read-write"]}
            }
          }
        },
        "network": {
          "oneOf": [
            {"enum": ["none", "any"]},
            {
              "type": "object",
              "additionalProperties": false,
              "required": ["tcp_connect"],
              "properties": {"tcp_connect": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1, "maximum": 65535}}}
            }
          ]
        },
        "processes": {"type": "boolean", "default": false},
        "env": {
          "type": "array",
          "description": "Environment variables of the host the plugin asks for; a worker gets one only once the user grants it (skillhost grant ID env:NAME).",
          "uniqueItems": true,
          "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
        }
      }
    }
  }
}

"""#
}
