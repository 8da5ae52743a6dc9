import Foundation
import SkillJSON

/// The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) over an
/// ``InstructionSkillSource``: every file of a skill is a resource `skill://<name>/<path>`; `skills/list`
/// and `skills/get` return entries `{uri, frontmatter, resources: [{uri, digest: "sha256:<hex>", size}]}`;
/// `resources/list`, `resources/read` and `resources/directory/read` serve the files and folders.
/// Unknown skills, files and folders are -32602 (the SEP's choice).
public struct SkillsExtension: Sendable {
    /// The extension id declared under `capabilities.extensions`.
    public static let identifier = "io.modelcontextprotocol/skills"
    /// The URI scheme.
    static let scheme = "skill://"

    /// Where the skills come from.
    public let source: any InstructionSkillSource
    /// Page size of the list methods.
    public let pagination: MCPPagination

    /// The extension over `source`.
    public init(source: any InstructionSkillSource, pagination: MCPPagination) {
        self.source = source
        self.pagination = pagination
    }

    /// The value declared under `capabilities.extensions[identifier]`.
    public static var capability: JSONValue { ["directoryRead": true] }

    // MARK: - Methods

    /// `skills/list`.
    public func list(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        let (page, next) = try pagination.page(of: try allSkills(), list: "skills", params: params)
        var result: JSONObject = ["skills": .array(page.map(Self.entry))]
        if let next { result["nextCursor"] = .string(next) }
        return .object(result)
    }

    /// `skills/get`: `params.uri` is a skill's `SKILL.md` URI.
    public func get(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        let uri = try Self.uri(in: params, method: "skills/get")
        guard let (skill, path) = Self.locate(uri, in: try allSkills()), path == "SKILL.md" else {
            throw .invalidParams("skills/get: \(uri) is not a skill served here; pass the uri of a skills/list entry (skill://<name>/SKILL.md)")
        }
        return ["skill": Self.entry(skill)]
    }

    /// `resources/list`: every file of every skill.
    public func resourcesList(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        let skills = try allSkills()
        let resources = skills.flatMap { skill in skill.files.map { Self.resource(skill, $0) } }
        let (page, next) = try pagination.page(of: resources, list: "resources", params: params)
        var result: JSONObject = ["resources": .array(Array(page))]
        if let next { result["nextCursor"] = .string(next) }
        return .object(result)
    }

    /// `resources/read`: one file, as text when it is UTF-8, else base64.
    public func read(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        let uri = try Self.uri(in: params, method: "resources/read")
        guard let (skill, path) = Self.locate(uri, in: try allSkills()), skill.files.contains(where: { $0.path == path }) else {
            throw .invalidParams("resources/read: no resource \(uri); list them with resources/list or skills/list")
        }
        let bytes: [UInt8]
        do {
            bytes = try source.read(skill: skill.path, file: path)
        } catch {
            throw JSONRPCError(code: JSONRPCError.internalErrorCode, "resources/read: \(uri) could not be read: \(error)")
        }
        var content: JSONObject = ["uri": .string(uri), "mimeType": .string(Self.mimeType(of: path))]
        if let text = String(validating: bytes, as: UTF8.self) {
            content["text"] = .string(text)
        } else {
            content["blob"] = .string(Data(bytes).base64EncodedString())
        }
        return ["contents": [.object(content)]]
    }

    /// `resources/directory/read`: the direct children of `skill://<name>` or one of its folders.
    public func directoryRead(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        let uri = try Self.uri(in: params, method: "resources/directory/read")
        let trimmed = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
        guard trimmed.hasPrefix(Self.scheme) else { throw Self.notADirectory(uri) }
        guard let skill = try allSkills().filter({ trimmed == Self.scheme + $0.path || trimmed.hasPrefix(Self.scheme + $0.path + "/") })
            .max(by: { $0.path.count < $1.path.count })
        else { throw Self.notADirectory(uri) }
        let name = skill.path
        let rest = trimmed.dropFirst(Self.scheme.count + name.count)
        let folder = rest.isEmpty ? "" : String(rest.dropFirst())
        let prefix = folder.isEmpty ? "" : folder + "/"
        var children: [JSONValue] = []
        var folders = Set<String>()
        var found = folder.isEmpty
        for file in skill.files where file.path.hasPrefix(prefix) {
            found = true
            let remainder = file.path.dropFirst(prefix.count)
            if let slash = remainder.firstIndex(of: "/") {
                let child = String(remainder[..<slash])
                if folders.insert(child).inserted {
                    children.append([
                        "uri": .string("\(Self.scheme)\(name)/\(prefix)\(child)"), "name": .string(child),
                        "mimeType": "inode/directory",
                    ])
                }
            } else {
                children.append(Self.resource(skill, file))
            }
        }
        guard found else { throw Self.notADirectory(uri) }
        let (page, next) = try pagination.page(of: children, list: "directory", params: params)
        var result: JSONObject = ["resources": .array(Array(page))]
        if let next { result["nextCursor"] = .string(next) }
        return .object(result)
    }

    // MARK: - Parts

    private func allSkills() throws(JSONRPCError) -> [MCPInstructionSkill] {
        do {
            return try source.skills().sorted { $0.path < $1.path }
        } catch let error as JSONRPCError {
            throw error
        } catch {
            throw JSONRPCError(code: JSONRPCError.internalErrorCode, "the instruction skills could not be listed: \(error)")
        }
    }

    /// A `skills/list` entry.
    static func entry(_ skill: MCPInstructionSkill) -> JSONValue {
        [
            "uri": .string("\(scheme)\(skill.path)/SKILL.md"),
            "frontmatter": skill.frontmatter,
            "resources": .array(skill.files.map { file in
                [
                    "uri": .string("\(scheme)\(skill.path)/\(file.path)"), "digest": .string("sha256:" + file.sha256),
                    "size": .int(Int64(file.size)),
                ]
            }),
        ]
    }

    /// A `resources/list` entry for one file (`SKILL.md` named and described from the frontmatter).
    static func resource(_ skill: MCPInstructionSkill, _ file: MCPInstructionSkillFile) -> JSONValue {
        var object: JSONObject = [
            "uri": .string("\(scheme)\(skill.path)/\(file.path)"),
            "name": .string(file.path.split(separator: "/").last.map(String.init) ?? file.path),
            "mimeType": .string(mimeType(of: file.path)),
            "size": .int(Int64(file.size)),
        ]
        if file.path == "SKILL.md" {
            object["name"] = .string(skill.name)
            if let description = skill.frontmatter["description"]?.stringValue { object["description"] = .string(description) }
        }
        return .object(object)
    }

    /// The skill a URI is inside (the longest path that prefixes it) and the file's path in it.
    static func locate(_ uri: String, in skills: [MCPInstructionSkill]) -> (skill: MCPInstructionSkill, path: String)? {
        guard let skill = skills.filter({ uri.hasPrefix(scheme + $0.path + "/") }).max(by: { $0.path.count < $1.path.count }) else { return nil }
        let path = String(uri.dropFirst(scheme.count + skill.path.count + 1))
        return path.isEmpty ? nil : (skill, path)
    }

    /// `skill://name/a/b.md` → ("name", "a/b.md").
    static func split(_ uri: String) -> (name: String, path: String)? {
        guard uri.hasPrefix(scheme) else { return nil }
        let rest = uri.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let name = String(rest[..<slash])
        let path = String(rest[rest.index(after: slash)...])
        return name.isEmpty || path.isEmpty ? nil : (name, path)
    }

    static func uri(in params: JSONValue?, method: String) throws(JSONRPCError) -> String {
        guard let uri = params?["uri"]?.stringValue else {
            throw .invalidParams("\(method): params.uri is missing or not a string; pass {\"uri\": \"skill://<name>/SKILL.md\"}")
        }
        return uri
    }

    static func notADirectory(_ uri: String) -> JSONRPCError {
        .invalidParams("resources/directory/read: \(uri) is not a directory served here; use skill://<name> or a folder inside it")
    }

    /// The media type by file extension; `SKILL.md` and other Markdown are `text/markdown`.
    static func mimeType(of path: String) -> String {
        let ext = path.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last : nil }
        switch ext.map({ $0.lowercased() }) {
        case "md", "markdown": return "text/markdown"
        case "txt": return "text/plain"
        case "json": return "application/json"
        case "yaml", "yml": return "application/yaml"
        case "py": return "text/x-python"
        case "sh": return "text/x-shellscript"
        case "js": return "text/javascript"
        case "html", "htm": return "text/html"
        case "csv": return "text/csv"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
