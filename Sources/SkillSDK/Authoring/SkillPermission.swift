/// What a skill may do to the user's world; the host asks for approval before `write` and `dangerous`
/// skills. Written to the manifest as `"permission"`: `.read` (only reads; runs without asking), `.write`
/// (changes user data that can be changed back) or `.dangerous` (hard to undo or reaches outside).
///
/// The same type the host uses (`SkillContract.Permission`), so both sides agree on the levels.
public typealias SkillPermission = Permission
