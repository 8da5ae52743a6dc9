import SkillHTTP
import SkillHostCore
import SkillPosix
import Synchronization

/// Checks HTTP bearer tokens against the registry's `access_tokens` (only hashes are stored there), reading
/// the registry again only when its file changed, so `skillhost token revoke` takes effect on the next
/// request of every replica that reads the same registry.
///
/// Whether the file changed is one `stat` (1-2 µs here, a twentieth of a whole call over HTTP): a server
/// that calls ``beginBatch()`` each time it has read new requests has the requests of one read share one
/// look, as the host's catalog does (``SkillHost/beginCallBatch()``). A revoke that finished before a
/// request was sent still applies to it: the look is taken after the read that brought the request.
public final class MCPTokenVerifier: Sendable {
    private let store: RegistryStore
    /// The resource this server is (its public URL); tokens made for another audience are refused.
    private let resource: String?
    private let cache = Mutex<Cache>(Cache())
    /// The current batch of requests (``beginBatch()``); 0 while nobody uses batches: every request looks.
    private let batch = Atomic<UInt64>(0)

    /// The registry's tokens as last read, and the `Authorization` values already verified against them
    /// (so a client's every request costs a look-up, not a SHA-256; forgotten when the registry changes).
    private struct Cache {
        var identity: Posix.FileIdentity?
        /// The batch in which the registry's file was last found to be `identity` (0: none).
        var checkedInBatch: UInt64 = 0
        var tokens: [AccessToken] = []
        var problem: String?
        var verified: [String: MCPPrincipal] = [:]
        /// The value verified last (clients send the same one on every request: compared before hashing).
        var last: (authorization: String, principal: MCPPrincipal)?

        mutating func known(_ authorization: String) -> MCPPrincipal? {
            if let last, last.authorization == authorization { return last.principal }
            guard let principal = verified[authorization] else { return nil }
            last = (authorization, principal)
            return principal
        }
    }

    /// A verifier over the registry at `store`.
    public init(store: RegistryStore, resource: String?) {
        self.store = store
        self.resource = resource
    }

    /// Why a request is not let in.
    public struct Refusal: Error, Sendable, Equatable {
        /// `invalid_token` when a token was given, nil when none was.
        public var error: String?
        /// One line.
        public var message: String
    }

    /// Starts a batch of requests: the first request after this looks at the registry's file, later ones
    /// reuse what it found until the next batch begins. Call it after reading new requests, before
    /// verifying them.
    public func beginBatch() { batch.wrappingAdd(1, ordering: .sequentiallyConsistent) }

    /// The principal of an `Authorization` field value.
    public func principal(authorization: String?) -> Result<MCPPrincipal, Refusal> {
        guard let authorization, !authorization.isEmpty else {
            return .failure(Refusal(error: nil, message: "no bearer token; send 'Authorization: Bearer <token>' with a token from 'skillhost token create NAME'"))
        }
        // A value verified before against this registry: no parsing, no hashing.
        let (identity, _) = registryIdentity()
        if let known = cache.withLock({ $0.identity == identity ? $0.known(authorization) : nil }) { return .success(known) }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .failure(Refusal(error: "invalid_request", message: "the Authorization field is not 'Bearer <token>'; send the token from 'skillhost token create NAME' as a bearer token"))
        }
        let secret = HTTPFields.trimmed(parts[1])
        let (tokens, problem) = current()
        let hash = AccessToken.hash(secret)
        guard let token = tokens.first(where: { Self.equal($0.sha256, hash) }) else {
            let why = problem.map { " (the registry cannot be read: \($0))" } ?? ""
            return .failure(Refusal(error: "invalid_token", message: "the bearer token is not known here or was revoked\(why); create one with 'skillhost token create NAME'"))
        }
        if let audience = token.audience, let resource, audience != resource {
            return .failure(Refusal(error: "invalid_token", message: "the token \(token.name) was made for \(audience), not for \(resource); use a token made for this server (--audience)"))
        }
        let principal = MCPPrincipal(name: token.name, scope: token.scope)
        cache.withLock { cache in
            // Only against the registry this was checked with; a bounded memory of clients.
            guard cache.identity == identity else { return }
            if cache.verified.count >= 1024 { cache.verified.removeAll() }
            cache.verified[authorization] = principal
            cache.last = (authorization, principal)
        }
        return .success(principal)
    }

    /// Whether any token exists (a server without tokens can be reached by nobody: it says so at start).
    public var hasTokens: Bool { !current().0.isEmpty }

    /// The registry file's identity now: the one found earlier in this batch, or a fresh look; and the batch
    /// the look stands for.
    private func registryIdentity() -> (Posix.FileIdentity, batch: UInt64) {
        // Read before the look: a look taken after this may stand for the whole batch.
        let batchNow = batch.load(ordering: .sequentiallyConsistent)
        if batchNow != 0, let seen = cache.withLock({ $0.checkedInBatch == batchNow ? $0.identity : nil }) { return (seen, batchNow) }
        let identity = Posix.FileIdentity(path: store.path)
        if batchNow != 0 {
            cache.withLock { cache in
                if cache.identity == identity { cache.checkedInBatch = batchNow }
            }
        }
        return (identity, batchNow)
    }

    private func current() -> ([AccessToken], String?) {
        let (identity, batchNow) = registryIdentity()
        if let cached = cache.withLock({ $0.identity == identity ? ($0.tokens, $0.problem) : nil }) { return cached }
        let read: ([AccessToken], String?)
        do {
            read = (try store.read().accessTokens, nil)
        } catch {
            read = ([], error.message)
        }
        cache.withLock { $0 = Cache(identity: identity, checkedInBatch: batchNow, tokens: read.0, problem: read.1) }
        return read
    }

    private static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
