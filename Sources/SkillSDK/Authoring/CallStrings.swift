/// The strings of one call a ``SkillContext`` exposes: ``SkillContext/callID``, ``SkillContext/sessionID``,
/// ``SkillContext/idempotencyKey`` and ``SkillContext/dataDirectory``.
///
/// Most skills read none of them, so during a host call of a ``SynchronousSkill`` they stay in the host's
/// C context until first read (``LazyCallStrings/pending(_:)``) and are copied at the call's end only when
/// the skill kept its context.
struct CallStrings: Sendable {
    var callID: String
    var sessionID: String
    var idempotencyKey: String
    var dataDirectory: String
}

/// Where a context's ``CallStrings`` come from when they are not copied yet.
protocol CallStringSource {
    /// The strings, copied out of the source. Called at most once per context, under its lock.
    func callStrings() -> CallStrings
}

/// A context's strings: copied, or still in their source. Unchecked: a pending source is only read under
/// the context's lock while the host keeps it valid (``SkillContext/keepStrings()`` runs before the call
/// returns).
enum LazyCallStrings: @unchecked Sendable {
    case copied(CallStrings)
    case pending(any CallStringSource)
}
