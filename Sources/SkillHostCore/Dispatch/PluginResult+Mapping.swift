import CSkillABI
import SkillJSON

extension PluginResult {
    /// The largest result the host accepts from a skill: 16 MiB. A skill's output goes back to a model,
    /// whose context holds far less; a larger result is a bug or an attack.
    public static let maximumResultBytes = 16 << 20

    /// Whether a result of `byteCount` bytes is accepted (the one check, in process and in a worker).
    public static func isWithinLimit(_ byteCount: Int) -> Bool { byteCount <= maximumResultBytes }

    /// The failure of a skill whose result of `byteCount` bytes is over ``maximumResultBytes``.
    public static func tooLarge(_ byteCount: Int, skillID: String, pluginID: String) -> HostError {
        let megabytes = String((Double(byteCount) / 1_048_576 * 10).rounded() / 10)
        return HostError(
            .skillFailed,
            "skill \(skillID) returned a result too large: \(megabytes) MiB, more than the "
                + "\(maximumResultBytes >> 20) MiB a result may have; ask it for less (a filter or a page)",
            skillID: skillID, pluginID: pluginID)
    }

    /// The skill's result JSON for `SKILL_STATUS_OK`; otherwise a ``HostError`` whose kind follows the
    /// status and whose message carries the plugin's error object (`message`, `field`, `remedy`).
    public func value(skillID: String, pluginID: String) throws(HostError) -> JSONValue {
        guard Self.isWithinLimit(bytes.count) else { throw Self.tooLarge(bytes.count, skillID: skillID, pluginID: pluginID) }
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
