import CSkillABI
import SkillJSON

extension PluginResult {
    /// The largest result the host accepts from a skill.
    public static let maximumResultBytes = 16 << 20

    /// The skill's result JSON for `SKILL_STATUS_OK`; otherwise a ``HostError`` whose kind follows the
    /// status and whose message carries the plugin's error object (`message`, `field`, `remedy`).
    public func value(skillID: String, pluginID: String) throws(HostError) -> JSONValue {
        guard bytes.count <= Self.maximumResultBytes else {
            throw HostError(.skillFailed,
                "skill \(skillID) returned a result too large (\(bytes.count) bytes, the limit is \(Self.maximumResultBytes)); ask for less data",
                skillID: skillID, pluginID: pluginID)
        }
        if status == SKILL_STATUS_OK {
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw HostError(.skillFailed,
                    "skill \(skillID) returned invalid JSON (\(error.description)); this is a bug in plugin \(pluginID)",
                    skillID: skillID, pluginID: pluginID)
            }
        }
        let detail = try? JSONValue(parsing: bytes)
        var text = detail?["message"]?.stringValue ?? (bytes.isEmpty ? "no details given" : String(decoding: bytes.prefix(500), as: UTF8.self))
        if let field = detail?["field"]?.stringValue, !field.isEmpty { text = "`\(field)`: " + text }
        if let remedy = detail?["remedy"]?.stringValue, !remedy.isEmpty { text += "; \(remedy)" }
        let (kind, lead): (HostError.Kind, String) =
            switch status {
            case SKILL_STATUS_INVALID_ARGUMENTS: (.invalidArguments, "rejected its arguments")
            case SKILL_STATUS_FAILED: (.skillFailed, "failed")
            case SKILL_STATUS_NOT_FOUND: (.notFound, "is not provided by plugin \(pluginID) (its manifest lists it; run 'skillhost rescan')")
            case SKILL_STATUS_CANCELLED: (.cancelled, "was cancelled")
            case SKILL_STATUS_TIMEOUT: (.timeout, "stopped at its deadline")
            case SKILL_STATUS_PERMISSION_DENIED: (.denied, "was refused permission")
            case SKILL_STATUS_INTERNAL: (.skillFailed, "hit an internal error in plugin \(pluginID)")
            default: (.skillFailed, "returned unknown status \(status)")
            }
        throw HostError(kind, "skill \(skillID) \(lead): \(text)", skillID: skillID, pluginID: pluginID, details: detail)
    }
}
