import CSkillABI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `skill_plugin_descriptor.invoke` for every SDK plugin. Never unwinds: every outcome is a status code and
/// a JSON document in `result`.
/// [any-thread] [blocking-ok]
let pluginInvoke:
    @convention(c) (
        UnsafePointer<skill_plugin_descriptor>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int,
        UnsafePointer<skill_call_context>?, UnsafeMutablePointer<skill_result>?
    ) -> skill_status = { descriptor, skillID, arguments, argumentsLength, context, result in
        // Any 1.x host: the 1.0 size is enough, since the SDK writes only 1.0 fields (skill_abi.h, "Both directions").
        guard let result, result.pointee.struct_size >= SKILL_RESULT_SIZE_1_0 else {
            return SKILL_STATUS_INTERNAL
        }
        let outcome: CallOutcome
        if let descriptor, let skillID {
            outcome = PluginRuntime.from(descriptor).invoke(
                skillID: skillID,
                arguments: UnsafeRawBufferPointer(start: arguments, count: arguments == nil ? 0 : argumentsLength),
                context: context)
        } else {
            outcome = .internalError("invoke was called without a descriptor or skill id")
        }
        let json = outcome.json
        result.pointee.status = outcome.status
        result.pointee.json = UnsafeRawPointer(json.pointer).assumingMemoryBound(to: CChar.self)
        result.pointee.json_length = json.length
        result.pointee.plugin_data = nil
        return outcome.status
    }

/// `skill_plugin_descriptor.free_result`: frees the JSON `invoke` malloc'd. Accepts a NULL json.
/// [any-thread]
let pluginFreeResult:
    @convention(c) (UnsafePointer<skill_plugin_descriptor>?, UnsafeMutablePointer<skill_result>?) -> Void = {
        _, result in
        guard let result else { return }
        free(UnsafeMutableRawPointer(mutating: result.pointee.json))
        result.pointee.json = nil
        result.pointee.json_length = 0
    }
