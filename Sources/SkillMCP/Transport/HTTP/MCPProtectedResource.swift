import SkillHTTP
import SkillJSON

/// The endpoint as an OAuth protected resource (RFC 9728): its URL, where its metadata is, and the metadata.
struct MCPProtectedResource {
    /// The server's settings (`--resource`, the authorization servers, TLS, the path).
    let configuration: MCPHTTPConfiguration

    /// The endpoint's URL: the configured resource, else from the request's `Host`.
    func resourceURL(for request: HTTPServerRequest) -> String {
        if let resource = configuration.resource { return resource }
        return "\(configuration.secure ? "https" : "http")://\(request.fields["host"] ?? "localhost")\(configuration.path)"
    }

    /// RFC 9728 §3.1: the metadata of `https://host/mcp` is at `https://host/.well-known/oauth-protected-resource/mcp`.
    func metadataURL(for request: HTTPServerRequest) -> String {
        let resource = resourceURL(for: request)
        guard let schemeEnd = resource.range(of: "://") else { return resource }
        let afterScheme = resource[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        return resource[..<hostEnd] + "/.well-known/oauth-protected-resource" + afterScheme[hostEnd...]
    }

    /// The Protected Resource Metadata (RFC 9728 §2).
    func metadata(for request: HTTPServerRequest) -> JSONValue {
        [
            "resource": .string(resourceURL(for: request)),
            "authorization_servers": .array(configuration.authorizationServers.map(JSONValue.string)),
            "bearer_methods_supported": ["header"],
            "scopes_supported": ["read", "write"],
            "resource_name": "SkillHost",
        ]
    }
}
