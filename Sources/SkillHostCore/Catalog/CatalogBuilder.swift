import SkillJSON

/// Builds the ``Catalog``: lists `*.so` files, takes unchanged files' outcomes from the scan cache, scans
/// the rest through the scanner child, applies the registry, and marks duplicates.
struct CatalogBuilder {
    var paths: HostPaths
    var scanner: PluginScanner
    var cache: ScanCache
    var registry: Registry

    /// - Parameter forceRescan: ignore the cache and scan every file.
    func build(forceRescan: Bool) throws(HostError) -> Catalog {
        let files = pluginFiles()
        let cached = forceRescan ? [:] : cache.load()
        var outcomes: [String: ScanOutcome] = [:]
        var keys: [String: ScanCache.FileKey] = [:]
        var checked: Set<String> = []
        var toScan: [String] = []
        for file in files {
            let key: ScanCache.FileKey
            do {
                key = try ScanCache.FileKey(path: file)
            } catch {
                outcomes[file] = ScanOutcome(status: .invalid, error: "\(error.message) (a dangling link?); fix or remove it")
                continue
            }
            keys[file] = key
            if let entry = cached[file], entry.key == key {
                outcomes[file] = entry.outcome
                if entry.checkedRules == ManifestValidator.rulesFingerprint { checked.insert(file) }
            } else {
                toScan.append(file)
            }
        }
        var updates: [String: ScanCache.Entry] = [:]
        if !toScan.isEmpty || forceRescan {
            let scanned = try scanner.scan(paths: toScan)
            for (file, outcome) in scanned {
                outcomes[file] = outcome
                // A file that changed while it was scanned is scanned again next time.
                if let key = keys[file], (try? ScanCache.FileKey(path: file)) == key {
                    updates[file] = ScanCache.Entry(key: key, outcome: outcome)
                }
            }
        }
        var records: [PluginRecord] = []
        records.reserveCapacity(files.count)
        for file in files {
            guard let outcome = outcomes[file] else { continue }
            let trusted = checked.contains(file)
            let record = record(for: file, outcome: outcome, checked: trusted)
            records.append(record)
            // Remember that this file version's manifest passed, so later processes skip the checks.
            // (Not for a file that changed while it was scanned: its outcome is not cached at all.)
            if !trusted, record.manifest != nil, outcome.status == .ok, let key = keys[file],
                updates[file] != nil || cached[file]?.key == key
            {
                updates[file] = ScanCache.Entry(
                    key: key, outcome: outcome, checkedRules: ManifestValidator.rulesFingerprint)
            }
        }
        if forceRescan { try cache.clear() }
        if !updates.isEmpty || forceRescan { try cache.store(updates) }
        markDuplicates(&records)
        try applyHealth(&records, reset: forceRescan)
        applyTrust(&records)
        let policy = AdminPolicy.load(files: paths.policyFiles)
        let verifier = TrustVerifier(digestCache: DigestCacheFile(directory: paths.cache))
        applySignatures(&records, policy: policy, verifier: verifier)
        var instructions = InstructionCatalogBuilder(
            paths: paths, cache: InstructionCache(directory: paths.cache), registry: registry
        ).build(forceRescan: forceRescan)
        markIdClashes(&records, &instructions)
        applyPolicy(&records, &instructions, policy: policy, verifier: verifier)
        var catalog = Catalog(plugins: records, instructions: instructions)
        catalog.untrustedProject = ProjectSkills.roots(paths, registry: registry).untrusted
        return catalog
    }

    /// Absolute paths of the `*.so` files in the plugins folder, sorted: regular files, and links that lead
    /// nowhere (listed as invalid rather than hidden). Folders and hidden names are skipped.
    func pluginFiles() -> [String] {
        CatalogInputs.pluginFileNames(in: paths.plugins)
            .map { paths.plugins + "/" + $0 }
            .filter { path in
                guard let status = try? Posix.status(ofPath: path) else { return true }
                return status.isRegularFile
            }
    }

    /// The record of one file from its outcome and the registry.
    /// - Parameter checked: the manifest already passed every check under the current rules (scan cache).
    func record(for file: String, outcome: ScanOutcome, checked: Bool = false) -> PluginRecord {
        guard outcome.status == .ok, let document = outcome.manifest else {
            let fallbackID = Self.fallbackID(for: file)
            let id = outcome.manifest.flatMap { $0["id"]?.stringValue }.map(Identifier.normalize) ?? fallbackID
            return PluginRecord(
                id: id, path: file, status: outcome.status == .broken ? .broken : .invalid,
                enabled: registry.pluginEnabled(id), error: outcome.error ?? "\(file): unusable",
                settings: registry.pluginSettings(id))
        }
        let manifest: PluginManifest
        do {
            manifest = checked
                ? try ManifestValidator.readChecked(document, file: file)
                : try ManifestValidator.validate(document, file: file)
        } catch {
            let fallbackID = Self.fallbackID(for: file)
            return PluginRecord(id: fallbackID, path: file, status: .invalid, enabled: registry.pluginEnabled(fallbackID),
                                error: error.description, settings: registry.pluginSettings(fallbackID))
        }
        let settings = registry.pluginSettings(manifest.id)
        let enabled = registry.pluginEnabled(manifest.id)
        let skills = manifest.skills.map { skill in
            let overrides = registry.skillSettings(skill.id, plugin: manifest.id)
            return SkillDescription(
                manifest: skill, timeoutOverride: overrides.timeout, pluginID: manifest.id, pluginPath: file,
                enabled: enabled && (overrides.enabled ?? true),
                approval: overrides.approval ?? (skill.permission.needsApproval ? .ask : .allow),
                rateLimitPerMinute: overrides.rateLimitPerMinute)
        }
        return PluginRecord(
            id: manifest.id, path: file, status: enabled ? .ok : .disabled, enabled: enabled, manifest: manifest,
            skills: skills, settings: settings)
    }

    /// Marks every plugin whose id (or one of whose skill ids) another file also uses as invalid, naming
    /// the other file: neither silently wins.
    func markDuplicates(_ records: inout [PluginRecord]) {
        var owners: [String: [Int]] = [:]
        for (index, record) in records.enumerated() where record.manifest != nil {
            owners[record.id, default: []].append(index)
        }
        var skillOwners: [String: [Int]] = [:]
        for (index, record) in records.enumerated() {
            for skill in record.skills { skillOwners[skill.id, default: []].append(index) }
        }
        var reasons: [Int: [String]] = [:]
        for (id, indices) in owners where indices.count > 1 {
            for index in indices {
                let others = indices.filter { $0 != index }.map { records[$0].path }.joined(separator: ", ")
                reasons[index, default: []].append(
                    "duplicate plugin id \"\(id)\": \(records[index].path) and \(others) both use it (ids compare after normalization); remove or rename one")
            }
        }
        for (id, indices) in skillOwners where Set(indices).count > 1 && owners[records[indices[0]].id]?.count ?? 0 < 2 {
            for index in Set(indices) {
                let others = Set(indices).subtracting([index]).map { records[$0].path }.sorted().joined(separator: ", ")
                reasons[index, default: []].append(
                    "duplicate skill id \"\(id)\": \(records[index].path) and \(others) both declare it; remove or rename one")
            }
        }
        for (index, messages) in reasons {
            records[index].status = .invalid
            records[index].error = messages.joined(separator: "; ")
            for skill in records[index].skills.indices { records[index].skills[skill].enabled = false }
        }
    }

    /// The id shown for a file without a usable manifest: its name without `.so`, normalized.
    static func fallbackID(for file: String) -> String {
        var name = String(file.split(separator: "/").last ?? "")
        if name.hasSuffix(".so") { name.removeLast(3) }
        if name.hasPrefix("lib") && name.count > 3 { name.removeFirst(3) }
        return Identifier.normalize(name)
    }
}
