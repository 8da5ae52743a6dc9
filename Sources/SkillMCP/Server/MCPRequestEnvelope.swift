import SkillJSON

/// The per-request `_meta` of the 2026-07-28 revision (basic/index, "_meta"): every request carries its
/// protocol version and the client's capabilities (and, optionally, its name), instead of an `initialize`
/// handshake settling them for a connection.
public struct MCPRequestEnvelope: Sendable, Equatable {
    /// `io.modelcontextprotocol/protocolVersion`.
    public static let versionKey = "io.modelcontextprotocol/protocolVersion"
    /// `io.modelcontextprotocol/clientCapabilities`.
    public static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    /// `io.modelcontextprotocol/clientInfo`.
    public static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
    /// `-32020`: the HTTP headers do not match the body.
    public static let headerMismatchCode = -32020
    /// `-32021`: a capability the request needs was not declared.
    public static let missingCapabilityCode = -32021
    /// `-32022`: the protocol version is not served.
    public static let unsupportedVersionCode = -32022

    /// The request's protocol version.
    public var protocolVersion: String
    /// The client's capabilities for this request.
    public var capabilities: JSONValue
    /// The client's name, when it said.
    public var clientName: String?

    /// The envelope of a request's params; nil when the request carries none (an `initialize`-era request).
    /// - Throws: -32602 when `_meta` names a version but is incomplete; -32022 when the version is not
    ///   one this server speaks per request (with `data.supported` and `data.requested`).
    public init?(params: JSONValue?) throws(JSONRPCError) {
        try self.init(meta: params?["_meta"])
    }

    /// The envelope in a request's `params._meta` (nil: the request has none); checked as ``init(params:)``
    /// checks it.
    public init?(meta: JSONValue?) throws(JSONRPCError) {
        guard case .object(let meta)? = meta, let version = meta[Self.versionKey] else { return nil }
        guard case .string(let text) = version else {
            throw .invalidParams("params._meta[\"\(Self.versionKey)\"] must be a string such as \"\(MCPProtocolVersion.discoverVersion)\"")
        }
        guard case .object? = meta[Self.capabilitiesKey] else {
            throw .invalidParams("params._meta lacks \"\(Self.capabilitiesKey)\" (an object, {} for none); every \(text) request carries it")
        }
        guard MCPProtocolVersion.statelessVersions.contains(text) else {
            throw JSONRPCError(
                code: Self.unsupportedVersionCode,
                "protocol version \(text) is not served per request; send one of \(MCPProtocolVersion.statelessVersions.joined(separator: ", ")), or initialize with one of \(MCPProtocolVersion.handshakeVersions.joined(separator: ", "))",
                data: ["supported": .array(MCPProtocolVersion.statelessVersions.map(JSONValue.string)), "requested": .string(text)])
        }
        protocolVersion = text
        capabilities = meta[Self.capabilitiesKey] ?? [:]
        clientName = meta[Self.clientInfoKey]?["name"]?.stringValue
    }

    /// Whether the client can answer an `elicitation/create` form (an approval question).
    public var canElicitForms: Bool {
        guard case .object(let elicitation)? = capabilities["elicitation"] else { return false }
        // `{}` means form mode (the only mode before modes were named); else `form` must be declared.
        return elicitation.isEmpty || elicitation["form"] != nil
    }
}
