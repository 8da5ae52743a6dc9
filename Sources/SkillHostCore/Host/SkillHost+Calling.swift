import Foundation
import SkillJSON

// Calling a skill (docs/architecture.md, "Calling a skill"): ``SkillHost/prepare(skillID:arguments:)`` runs
// every check that needs nobody, the caller asks for approval when ``PreparedCall/needsApproval``, and
// ``SkillHost/execute(_:options:)`` runs the skill with its clock started then. The tool-call layer
// (SkillCalls) is the one caller of these for every front end.
extension SkillHost {
    /// Checks a call without running anything: normalize the id → find it (`notFound`) → plugin usable
    /// (`invalidPlugin`, `pluginCrashed`) → enabled (`disabled`) → gates (`denied`, `rateLimited`) →
    /// validate the arguments (`invalidArguments`, every error with its JSON pointer) → the registry's
    /// `approval` is not `deny` (`denied`).
    ///
    /// A catalog rebuild may do file I/O on the calling thread; the plugin's code never runs here.
    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        let snapshot = try currentSnapshot()
        let route = try route(skillID, in: snapshot)
        // Read out of the route once and lent to every check (each read of the route's fields for a call
        // copied the whole description, a retain per field).
        let skill = route.skill
        let plugin = route.plugin
        try checkUsable(skill, plugin)
        for index in gateKinds.indices {
            switch gateKinds[index] {
            case .trust(let trust):
                // The catalog's look at the files stands for the gate's own (same paths, same moment).
                try trust.check(skill, plugin: plugin, build: snapshot.build, stamps: snapshot.stamp(of:))
            case .other(let gate):
                try gate.check(skill, plugin: plugin)
            }
        }
        try validator.validate(arguments, for: skill, generation: snapshot.generation, route: route)
        if skill.approval == .deny {
            throw HostError(.denied,
                "skill \(skill.id) is denied by the registry (\(approvalSetting(of: skill)) is \"deny\")",
                skillID: skill.id, pluginID: skill.pluginID)
        }
        return PreparedCall(skill: skill, arguments: arguments, route: route)
    }

    /// The skill `skillID` names (normalized), as the catalog offers it, enabled or not.
    /// - Throws: ``HostError`` `notFound`, with a "did you mean" when an id is close, or naming the skills
    ///   of a plugin id given instead of a skill's.
    public func skill(_ skillID: String) throws(HostError) -> SkillDescription {
        try route(skillID, in: try currentSnapshot()).skill
    }

    /// The route of `skillID` in `snapshot`.
    private func route(_ skillID: String, in snapshot: ProcessCatalogCache.Snapshot) throws(HostError) -> SkillRoute {
        // An id the catalog knows as it is was canonical already: normalize only the others.
        if let route = snapshot.route(skillID) { return route }
        let id = Identifier.normalize(skillID)
        if let route = snapshot.route(id) { return route }
        if let plugin = snapshot.catalog.plugin(id) {
            let names = plugin.skills.map(\.id).joined(separator: ", ")
            throw HostError(.notFound, "\"\(id)\" is a plugin, not a skill; call one of its skills: \(names)", pluginID: plugin.id)
        }
        if let unusable = snapshot.catalog.unusableOwner(ofSkill: id) { throw unusable }
        throw HostError(.notFound, "no skill \"\(id)\"; \(snapshot.catalog.didYouMean(id, among: [.skill]))run 'skillhost list' to see the skills", skillID: id)
    }

    /// Runs a prepared call through its plugin's executor. The skill's clock (``CallDeadline``) starts here:
    /// the time spent checking and asking is not the skill's. A call that needs approval runs only with
    /// `options.approved`.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`: no executor switch per step, which a
    /// task with an executor preference pays dearly). The plugin's code never runs on it (worker slots and
    /// executors own that).
    /// - Returns: the skill's result JSON.
    nonisolated(nonsending) public func execute(_ prepared: PreparedCall, options: InvocationOptions = InvocationOptions()) async throws(HostError) -> JSONValue {
        let dispatched = try dispatch(prepared, options: options)
        return try await dispatched.executor.execute(dispatched.call)
    }

    /// What ``execute(_:options:)`` does before it waits: checks the approval, makes the plugin's data
    /// folder, finds its executor and the call to hand it. A caller that awaits `executor.execute(call)`
    /// itself saves the call an `async` frame (the tool-call layer's host backend does).
    public func dispatch(_ prepared: PreparedCall, options: InvocationOptions) throws(HostError) -> (executor: any PluginExecutor, call: SkillCall) {
        let skill = prepared.skill
        if prepared.needsApproval, !options.approved {
            throw HostError(.denied,
                "skill \(skill.id) (\(skill.permission.rawValue)) needs approval and no one was asked; pass --yes, answer y at the prompt, or set \(approvalSetting(of: skill)) to \"allow\"",
                skillID: skill.id, pluginID: skill.pluginID)
        }
        guard let route = prepared.route else {
            throw HostError(.notFound, "skill \(skill.id) is not in this host's catalog; prepare it with this host", skillID: skill.id)
        }
        let dataDirectory = try self.dataDirectory(route)
        let callID = options.callID ?? UUID().uuidString.lowercased()
        let executor = try executor(for: route)
        var call = SkillCall(
            pluginID: route.plugin.id, pluginPath: route.plugin.path, skillID: skill.id, arguments: prepared.arguments,
            callID: callID, sessionID: options.sessionID,
            idempotencyKey: options.idempotencyKey ?? IdempotencyKey.fallback(sessionID: options.sessionID, callID: callID),
            deadline: CallDeadline(seconds: skill.timeout), configuration: route.plugin.settings.configuration,
            dataDirectory: dataDirectory, sessionContext: options.sessionContext)
        call.attribution = options.attribution
        return (executor, call)
    }

    /// ``prepare(skillID:arguments:)`` then ``execute(_:options:)``: a call whose caller has already decided
    /// about approval (`options.approved`).
    nonisolated(nonsending) public func invoke(skillID: String, arguments: JSONValue, options: InvocationOptions = InvocationOptions()) async throws(HostError) -> JSONValue {
        try await execute(try prepare(skillID: skillID, arguments: arguments), options: options)
    }

    /// Where the registry sets `skill`'s approval, as remedies name it.
    func approvalSetting(of skill: SkillDescription) -> String {
        "\(skill.settingPath("approval")) in \(paths.registry)"
    }

    /// The plugin's data folder, made on its first call.
    func dataDirectory(_ route: SkillRoute) throws(HostError) -> String {
        if let known = route.dataDirectory.withLock({ $0 }) { return known }
        let plugin = route.plugin
        let dataDirectory: String
        if let made = madeDataDirectories.withLock({ $0[plugin.id] }) {
            dataDirectory = made
        } else {
            dataDirectory = paths.dataDirectory(forPlugin: plugin.id)
            try Posix.makeDirectories(dataDirectory)
            madeDataDirectories.withLock { $0[plugin.id] = dataDirectory }
        }
        route.dataDirectory.withLock { $0 = dataDirectory }
        return dataDirectory
    }

    /// The route's executor: the one found under this catalog build while no executor was replaced since,
    /// else the host's (see ``executor(for:file:)``).
    func executor(for route: SkillRoute) throws(HostError) -> any PluginExecutor {
        let generation = executorGeneration.load(ordering: .sequentiallyConsistent)
        if let known = route.executor.withLock({ $0 }), known.generation == generation { return known.executor }
        let executor = try executor(for: route.plugin, file: route.stamp)
        route.executor.withLock { $0 = (executor, generation) }
        return executor
    }

    func checkUsable(_ skill: SkillDescription, _ plugin: PluginRecord) throws(HostError) {
        switch plugin.status {
        case .invalid:
            throw HostError(.invalidPlugin, "plugin \(plugin.id) is invalid: \(plugin.error ?? "see 'skillhost list'")",
                            skillID: skill.id, pluginID: plugin.id)
        case .broken:
            throw HostError(.pluginCrashed, "plugin \(plugin.id) is broken: \(plugin.error ?? "see 'skillhost list'")",
                            skillID: skill.id, pluginID: plugin.id)
        case .disabled:
            throw HostError(.disabled, "skill \(skill.id) is disabled because plugin \(plugin.id) is; run 'skillhost enable \(plugin.id)'",
                            skillID: skill.id, pluginID: plugin.id)
        case .denied:
            throw HostError(.denied, plugin.error ?? "plugin \(plugin.id) may not run; see 'skillhost list'",
                            skillID: skill.id, pluginID: plugin.id)
        case .ok:
            if let blocked = plugin.policyBlockedSkills[skill.id] {
                throw HostError(.denied, blocked, skillID: skill.id, pluginID: plugin.id)
            }
            guard skill.enabled else {
                throw HostError(.disabled, "skill \(skill.id) is disabled; run 'skillhost enable \(skill.id)'",
                                skillID: skill.id, pluginID: plugin.id)
            }
        }
    }
}
