/// What a skill may do to the user's world; the host asks for approval before `write` and `dangerous` skills.
///
/// Written to the manifest as `"permission"`.
public enum SkillPermission: String, Sendable, CaseIterable {
    /// Only reads (the clock, statistics of a text). Runs without asking.
    case read
    /// Changes user data that can be changed back (creates a reminder, writes a file).
    case write
    /// Changes that are hard to undo or reach outside (deletes data, sends mail, runs commands).
    case dangerous
}
