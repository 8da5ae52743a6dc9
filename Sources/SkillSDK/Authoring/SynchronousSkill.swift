/// A ``Skill`` whose work never waits: it computes its result on the host's thread and returns, without
/// `async`, so the SDK calls it without a `Task` (the cheapest call a Swift skill can get).
///
/// Write ``run(_:context:)`` instead of ``Skill/execute(_:context:)``; `execute` is provided and calls `run`,
/// so the skill still works everywhere a ``Skill`` does (tests that `await skill.execute(…)` included):
/// ```swift
/// struct Upper: SynchronousSkill {
///     struct Arguments: Decodable { var text: String }
///     struct Output: Encodable { var text: String }
///     let name = "upper"
///     let title = "Upper case"
///     let description = "The text in upper case. Not for other changes of case."
///     let parameters = ParameterSchema.object(["text": .string("Any text")], required: ["text"])
///
///     func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
///         Output(text: arguments.text.uppercased())
///     }
/// }
/// ```
///
/// # When to choose it
///
/// Choose `SynchronousSkill` for work that only computes: formatting, parsing, arithmetic, reading a small
/// file. Keep ``Skill`` and an `async` ``Skill/execute(_:context:)`` for anything that waits (sleeps, the
/// network, a subprocess, other tasks) or that reads or stores session values
/// (``SkillContext/value(forKey:)`` and ``SkillContext/set(_:forKey:)`` are `async`).
///
/// # Implementation requirements
///
/// Everything ``Skill`` asks, and:
/// - ``run(_:context:)`` runs on the host's calling thread, which waits for it: the SDK cannot abandon it
///   when the call is cancelled or passes its deadline. In any loop, poll ``SkillContext/isCancelled`` or
///   call ``SkillContext/checkCancellation()`` (both read the host's flag and the deadline directly) and
///   stop. `Task.isCancelled` is always false there: there is no task.
/// - Do not block on work you start elsewhere (a semaphore waiting for a `Task`): write `execute` instead.
/// - When a type writes both `run` and `execute`, the host calls `run`.
/// - ``SkillContext/log(_:level:)`` works from any thread; lines logged from other threads reach the host
///   when `run` returns, and lines logged after that are dropped.
public protocol SynchronousSkill: Skill {
    // Restated so that `run`'s signature alone infers them, as `execute`'s does for a ``Skill``.
    /// The decoded arguments: a `Decodable` type, or ``JSONValue``.
    associatedtype Arguments
    /// The result: an `Encodable` type, or ``JSONValue``.
    associatedtype Output

    /// Does the work on the calling thread.
    /// - Parameters:
    ///   - arguments: the decoded arguments, already validated by the host against ``Skill/parameters``.
    ///   - context: the call's ids, deadline, cancellation flag, configuration and data folder.
    /// - Returns: the result the host hands back to the model.
    /// - Throws: ``SkillError`` for failures the user should understand (``SkillError/cancelled`` or
    ///   ``SkillError/timedOut`` when it stopped early); any other error is reported as a failure with its
    ///   description.
    func run(_ arguments: Arguments, context: SkillContext) throws -> Output
}

extension SynchronousSkill {
    /// Calls ``run(_:context:)``. The host never goes through here: it calls `run` directly, without a task.
    public func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        try run(arguments, context: context)
    }
}
