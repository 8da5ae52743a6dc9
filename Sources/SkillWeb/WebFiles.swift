import Foundation
import SkillHTTP
import SkillHostCore

/// The files a skill's script wrote, served from the session's workspace (`<state>/workspaces/<session>/`,
/// the one folder scripts may write) for the links on a `run_skill_script` card: `GET
/// /api/files?session=ID&path=RELATIVE`. A path that leaves the workspace (absolute, `..`, a symlink out) or
/// is not a regular file is refused. A file is always a download (`Content-Disposition: attachment`,
/// `application/octet-stream`, and a sandboxing CSP): a script's `.html` or `.js` never runs in the page's origin.
struct WebFiles {
    let stateDirectory: String

    /// The file `request` names, as a download.
    func answer(_ request: HTTPServerRequest) throws -> HTTPServerResponse {
        guard let session = WebAccess.query(request.target, "session").flatMap(Self.decoded), !session.isEmpty,
            let path = WebAccess.query(request.target, "path").flatMap(Self.decoded), !path.isEmpty
        else {
            throw WebRefusal(400, "the link needs session= and path=; use the links on a script's card")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw WebRefusal(403, "'\(WebAccess.shown(path))' leaves the session's workspace; only files a script wrote there are served")
        }
        let workspace: ScriptWorkspace
        do {
            workspace = try ScriptWorkspace.forSession(session, stateDirectory: stateDirectory)
        } catch {
            throw WebRefusal(500, error.message)
        }
        let file = workspace.folder + "/" + path
        guard let real = Self.realPath(file), let root = Self.realPath(workspace.folder), real.hasPrefix(root + "/") else {
            throw WebRefusal(404, "no file \(path) in the workspace of session \(session)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: real)
        else {
            throw WebRefusal(404, "no file \(path) in the workspace of session \(session)")
        }
        let name = String(path.split(separator: "/").last ?? "file").filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
        return HTTPServerResponse(
            status: 200,
            fields: HTTPFields([
                ("Content-Type", "application/octet-stream"), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                ("Content-Security-Policy", "sandbox; default-src 'none'"),
            ]),
            body: [UInt8](data))
    }

    private static func decoded(_ text: String) -> String? { text.removingPercentEncoding }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
