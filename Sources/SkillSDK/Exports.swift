// `import SkillSDK` is all a plugin author needs: the JSON value type its API takes and returns
// (`JSONValue`, `JSONObject`) and the product rules it shares with the host (`Permission`, `Identifier`,
// `SkillDefaults`).
@_exported import SkillContract
@_exported import SkillJSON
