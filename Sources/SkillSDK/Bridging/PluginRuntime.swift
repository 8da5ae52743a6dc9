import CSkillABI
import SkillJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One exported plugin: its C descriptor and the skills behind it. Created once per plugin id and never
/// freed (the host never unloads a plugin, so the descriptor has static lifetime).
///
/// The descriptor is allocated with room for a pointer to this object right after it, so the C `invoke`
/// (which cannot capture anything) finds its plugin from the descriptor pointer the host passes back.
final class PluginRuntime: Sendable {
    /// One skill as `invoke` runs it. A class: the lookup hands out a reference, not copies of both
    /// existentials.
    final class Entry: Sendable {
        let skill: any Skill
        /// The same skill when it is a ``SynchronousSkill``: then `invoke` calls its `run` with no task.
        let synchronous: (any SynchronousSkill)?

        init(_ skill: any Skill) {
            self.skill = skill
            synchronous = skill as? any SynchronousSkill
        }
    }

    let skills: [String: Entry]
    let skillIDs: [String]
    /// The skills by id as NUL-terminated C strings, in manifest order: a plugin has few skills, so the
    /// id the host passes is compared in place (no `String` made per call).
    nonisolated(unsafe) private let skillsByCString: [(id: UnsafePointer<CChar>, entry: Entry)]
    /// Above this many skills the lookup hashes a `String` instead.
    private static let linearLookupLimit = 16
    nonisolated(unsafe) let descriptor: UnsafePointer<skill_plugin_descriptor>

    private static let runtimeOffset =
        (MemoryLayout<skill_plugin_descriptor>.size + MemoryLayout<UnsafeRawPointer>.alignment - 1)
        / MemoryLayout<UnsafeRawPointer>.alignment * MemoryLayout<UnsafeRawPointer>.alignment

    init(plugin: SkillPlugin) {
        var skills: [String: Entry] = [:]
        for skill in plugin.skills { skills[plugin.skillID(of: skill)] = Entry(skill) }
        self.skills = skills
        skillIDs = plugin.skills.map(plugin.skillID(of:))
        skillsByCString = plugin.skills.map { skill in
            (UnsafePointer(PluginRuntime.copyToCString(plugin.skillID(of: skill)).pointer), Entry(skill))
        }

        let manifest = PluginRuntime.copyToCString(plugin.manifest.serialized())
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: PluginRuntime.runtimeOffset + MemoryLayout<UnsafeRawPointer>.size,
            alignment: MemoryLayout<skill_plugin_descriptor>.alignment)
        // Zero-filled, then the 1.0 fields by name: no memberwise initializer, so the SDK still compiles when
        // a later 1.x header appends fields (their zero is "absent").
        var fields = skill_plugin_descriptor()
        fields.magic = SKILL_ABI_MAGIC
        fields.abi_major = UInt16(SKILL_ABI_VERSION_MAJOR)
        fields.abi_minor = UInt16(SKILL_ABI_VERSION_MINOR)
        fields.struct_size = UInt32(MemoryLayout<skill_plugin_descriptor>.size)
        fields.manifest_json = UnsafePointer(manifest.pointer)
        fields.manifest_json_length = manifest.length
        fields.invoke = pluginInvoke
        fields.free_result = pluginFreeResult
        let descriptor = memory.initializeMemory(as: skill_plugin_descriptor.self, repeating: fields, count: 1)
        self.descriptor = UnsafePointer(descriptor)
        memory.storeBytes(
            of: Unmanaged.passRetained(self).toOpaque(), toByteOffset: PluginRuntime.runtimeOffset,
            as: UnsafeMutableRawPointer.self)
    }

    /// The runtime behind a descriptor this SDK made.
    static func from(_ descriptor: UnsafePointer<skill_plugin_descriptor>) -> PluginRuntime {
        let opaque = UnsafeRawPointer(descriptor).load(fromByteOffset: runtimeOffset, as: UnsafeMutableRawPointer.self)
        return Unmanaged<PluginRuntime>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Runs one call on the calling thread, blocking until the skill finishes or is stopped.
    func invoke(skillID: UnsafePointer<CChar>, arguments: UnsafeRawBufferPointer, context: UnsafePointer<skill_call_context>?)
        -> CallOutcome
    {
        guard let entry = entry(withID: skillID) else {
            let known = skillIDs.joined(separator: ", ")
            return .notFound("no skill \"\(String(cString: skillID))\" in this plugin; it has: \(known)")
        }
        let json: JSONValue
        do {
            json = arguments.isEmpty ? .object([:]) : try JSONValue(parsing: arguments)
        } catch {
            return .failure(.invalidArguments(field: "", message: "the arguments are not JSON: \(error)"))
        }
        guard let context else {
            return .failure(.failed(message: "invoke was called without a call context; the host must pass one"))
        }
        if let synchronous = entry.synchronous {
            // A synchronous skill runs right here: no task, no rendezvous, its context's callbacks called
            // directly. The host's thread waits for it as it waits for a C plugin.
            // The context's strings stay in the C context until read (most skills never do); a context the
            // skill kept gets its copy now, while the C context is still valid.
            let channel = CallThreadChannel(context: context)
            var skillContext = SkillContext(lazyCContext: context, channel: channel)
            let outcome = CallOutcome.runSynchronously(synchronous, arguments: json, context: skillContext)
            if !isKnownUniquelyReferenced(&skillContext) { skillContext.keepStrings() }
            channel.close()
            return outcome
        }
        let rendezvous = CallRendezvous(context: context, skill: entry.skill, arguments: json)
        // `Task.immediate` runs the skill on this thread until it first suspends: a skill that finishes
        // without suspending costs no hop to the concurrency pool and back (its outcome is there before
        // `wait` looks). One that suspends continues on the pool, and `wait` serves its context requests,
        // cancellation and deadline as before. While it runs here without suspending, cancellation reaches
        // it through `SkillContext.isCancelled` / `checkCancellation()` (they read the host's flag and the
        // deadline directly); `Task.isCancelled` turns true only after it suspends.
        let task = Task.immediate { await rendezvous.runSkill() }
        return rendezvous.wait(for: task, deadline: rendezvous.deadline)
    }

    /// The skill whose id is the C string `id`, if any.
    private func entry(withID id: UnsafePointer<CChar>) -> Entry? {
        guard skillsByCString.count <= PluginRuntime.linearLookupLimit else { return skills[String(cString: id)] }
        for candidate in skillsByCString where strcmp(candidate.id, id) == 0 { return candidate.entry }
        return nil
    }

    /// A malloc'd, NUL-terminated copy of `text`, which the caller owns.
    static func copyToCString(_ text: String) -> (pointer: UnsafeMutablePointer<CChar>, length: Int) {
        var text = text
        return text.withUTF8 { bytes in
            let pointer = malloc(bytes.count + 1)!.bindMemory(to: CChar.self, capacity: bytes.count + 1)
            bytes.withMemoryRebound(to: CChar.self) { source in
                if let base = source.baseAddress { pointer.update(from: base, count: bytes.count) }
            }
            pointer[bytes.count] = 0
            return (pointer, bytes.count)
        }
    }
}
