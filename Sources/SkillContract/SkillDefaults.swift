import CSkillABI
import SkillJSON

/// Values that apply when a manifest or the registry leaves a setting out, and the limits both sides check.
public enum SkillDefaults {
    /// Seconds a skill may run when neither its manifest nor the registry says otherwise.
    public static let timeout: Double = 30
    /// The longest timeout a manifest may declare, in seconds (one day).
    public static let maximumTimeout: Double = 86_400
    /// Why `value` is not a timeout a manifest or the registry may give (nil when it is one): a number of
    /// seconds above 0 and at most ``maximumTimeout``.
    public static func timeoutProblem(_ value: JSONValue) -> String? {
        if let seconds = value.doubleValue, seconds > 0, seconds <= maximumTimeout { return nil }
        return "must be a number of seconds > 0 and ≤ \(SecondsText.format(maximumTimeout)), got \(value.serialized())"
    }

    /// The ABI major version this code implements; a plugin built for another major is refused.
    public static let abiMajor = Int(SKILL_ABI_VERSION_MAJOR)
    /// The ABI minor version of the header this code was compiled with.
    public static let abiMinor = Int(SKILL_ABI_VERSION_MINOR)
    /// `"MAJOR.MINOR"` of the header this code was compiled with, as a manifest's `abi_version`.
    public static let abiVersion = "\(SKILL_ABI_VERSION_MAJOR).\(SKILL_ABI_VERSION_MINOR)"

    /// Why `text` is not an `abi_version` this host accepts ("" when it is): `"MAJOR.MINOR"` with
    /// MAJOR = ``abiMajor``.
    public static func abiVersionProblem(_ text: String) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let major = Int(parts[0])
        else { return "\"\(text)\" is not MAJOR.MINOR; write e.g. \"\(abiVersion)\"" }
        if major != abiMajor {
            return "ABI \(text) is not supported; this host implements ABI \(abiMajor).x, rebuild the plugin against it"
        }
        return ""
    }

    /// Why a plugin whose manifest says `min_host_abi: text` cannot run on this host ("" when it can): it
    /// needs a later minor (fields or functions appended after this host's), or another major.
    public static func hostABIProblem(_ text: String) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else {
            return "\"\(text)\" is not MAJOR.MINOR; write e.g. \"\(abiVersion)\""
        }
        if major != abiMajor || minor > abiMinor {
            return "the plugin needs host ABI \(text) and this host implements ABI \(abiVersion); update SkillHost to a release with ABI \(text), or ask the plugin's publisher for a build that does without what \(text) added"
        }
        return ""
    }
}
