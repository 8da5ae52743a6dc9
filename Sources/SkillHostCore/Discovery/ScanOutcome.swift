import SkillJSON

/// What scanning one plugin file found: its manifest, or why it cannot be used.
public struct ScanOutcome: Sendable, Equatable {
    /// The file's state after a scan.
    public enum Status: String, Sendable {
        /// The library loaded and its descriptor and manifest passed every check.
        case ok
        /// The file or its manifest is wrong (ELF, ABI, manifest problems): fix the plugin.
        case invalid
        /// The scanner crashed or hung on the file (or a worker marked it broken).
        case broken
    }

    /// The state.
    public var status: Status
    /// Why the file is invalid or broken; nil when ok.
    public var error: String?
    /// The manifest document when ok.
    public var manifest: JSONValue?
    /// Each manifest problem on its own line, when the manifest was the reason it is invalid.
    public var problems: [String]
    /// The checker's advice on what it could read of an invalid manifest, one line each (for `validate`).
    public var advice: [String] = []

    /// Creates an outcome.
    public init(status: Status, error: String? = nil, manifest: JSONValue? = nil, problems: [String] = []) {
        self.status = status
        self.error = error
        self.manifest = manifest
        self.problems = problems
    }

    /// The outcome as the scanner child prints it (one JSON object).
    public var json: JSONValue {
        var object: JSONObject = ["status": .string(status.rawValue)]
        object["error"] = error.map(JSONValue.string) ?? .null
        if let manifest { object["manifest"] = manifest }
        if !problems.isEmpty { object["problems"] = .array(problems.map(JSONValue.string)) }
        if !advice.isEmpty { object["advice"] = .array(advice.map(JSONValue.string)) }
        return .object(object)
    }

    /// Reads what ``json`` wrote; nil when the object is not a scan outcome.
    public init?(json: JSONValue) {
        guard let raw = json["status"]?.stringValue, let status = Status(rawValue: raw) else { return nil }
        self.status = status
        self.error = json["error"]?.stringValue
        self.manifest = json["manifest"]
        self.problems = json["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.advice = json["advice"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if status == .ok && manifest == nil { return nil }
    }
}
