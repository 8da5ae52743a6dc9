import SkillJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a call's output goes when the skill keeps the SDK's ``Skill/encodeOutput(_:)`` for an `Encodable`
/// output: straight to JSON bytes (``JSONStreamEncoder``), with no ``JSONValue`` tree and no string in
/// between.
///
/// ``CallOutcome/run(_:arguments:context:)`` binds a capture to the current thread around its (synchronous)
/// `encodeOutput` call. The SDK's default implementation writes the bytes into it and returns a placeholder.
/// A skill's own `encodeOutput` never touches it, and the capture serves only the skill type being called,
/// once, and not while its output is being encoded, so whatever else runs meanwhile encodes as before.
struct OutputCapture {
    /// The skill type whose default `encodeOutput` may use the capture.
    private let skill: ObjectIdentifier
    /// The text, once captured.
    private var text: JSONText?

    /// The thread's current capture: a pointer to a caller's stack, set only during `encodeOutput`. Nil when
    /// the process has no key left (then outputs take the tree path).
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Runs `encode` (a call of `S.encodeOutput`) with a capture for `S` bound to this thread.
    /// - Returns: the text the default implementation wrote, or nil (then the value `encode` returned is the
    ///   output).
    static func run<S: Skill>(for skill: S.Type, _ encode: () throws -> JSONValue) throws -> (JSONValue, JSONText?) {
        guard let key else { return (try encode(), nil) }
        var capture = OutputCapture(skill: ObjectIdentifier(skill), text: nil)
        let previous = pthread_getspecific(key)
        defer { pthread_setspecific(key, previous) }
        return try withUnsafeMutablePointer(to: &capture) { capture in
            pthread_setspecific(key, capture)
            do {
                let value = try encode()
                return (value, capture.pointee.text)
            } catch {
                capture.pointee.text?.release()
                throw error
            }
        }
    }

    /// Encodes `output` into the thread's capture when it is there for `S` and the stream can write it;
    /// whether it did.
    static func capture<S: Skill>(_ output: S.Output, of skill: S.Type) -> Bool where S.Output: Encodable {
        guard let key, let raw = pthread_getspecific(key) else { return false }
        let capture = raw.assumingMemoryBound(to: OutputCapture.self)
        guard capture.pointee.skill == ObjectIdentifier(skill), capture.pointee.text == nil else { return false }
        // Unbound while the value encodes itself: an `encodeOutput` it calls works as without a capture.
        pthread_setspecific(key, nil)
        defer { pthread_setspecific(key, raw) }
        guard let text = JSONStreamEncoder.encode(output) else { return false }
        capture.pointee.text = text
        return true
    }
}
