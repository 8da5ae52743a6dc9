import SkillJSON

extension CatalogBuilder {
    /// Checks the signature an install kept beside each plugin file (``InstalledSignature``) against the keys
    /// trusted now: the registry's publishers and the policy's allowed ones.
    func applySignatures(_ records: inout [PluginRecord], policy: AdminPolicy, verifier: TrustVerifier) {
        let keys = PackageSignature.trustedKeys(registry: registry, policy: policy)
        for index in records.indices where records[index].manifest != nil {
            let record = records[index]
            records[index].signature = InstalledSignature.check(
                pluginFile: record.path, pluginID: record.id, keys: keys, digest: { try? verifier.digest(of: $0) })
        }
    }

    /// Lays the administrator's policy over the registry's decisions (docs/policy.md): a blocked plugin is
    /// `denied` with the rule's line (so are all of them when the policy does not parse), a blocked skill is
    /// off, forced approval and sandbox replace the registry's settings, a blocked instruction skill is
    /// `denied`. Each decision is noted on the record with the rule that made it, for `list` and `inspect`.
    func applyPolicy(
        _ records: inout [PluginRecord], _ instructions: inout [InstructionSkillRecord], policy: AdminPolicy,
        verifier: TrustVerifier
    ) {
        guard !policy.isEmpty else { return }
        for index in records.indices {
            let record = records[index]
            let subject = PolicySubject(
                id: record.id, version: record.manifest?.version, publisher: record.signature?.verifiedKeyID,
                digest: { try? verifier.digest(of: record.path) })
            if let reason = policy.blockingReason(plugin: subject, publisherLabel: record.signature?.label) {
                records[index].policyNotes.append(reason)
                records[index].policyBlock = reason
                if record.status != .invalid && record.status != .broken {
                    records[index].status = .denied
                    records[index].error = reason
                }
                for skill in records[index].skills.indices { records[index].skills[skill].enabled = false }
                continue
            }
            guard record.manifest != nil else { continue }
            if let rule = policy.sandboxRule(plugin: subject) {
                records[index].settings.sandbox = .required
                records[index].settings.isolation = .process
                records[index].policyNotes.append("runs sandboxed (sandbox required, in a worker) by the administrator's policy \(rule.label)")
            }
            for skillIndex in record.skills.indices {
                let skill = record.skills[skillIndex]
                if let reason = policy.blockingReason(skill: skill.id, of: subject) {
                    records[index].skills[skillIndex].enabled = false
                    records[index].policyBlockedSkills[skill.id] = reason
                    records[index].policyNotes.append(reason)
                } else if let rule = policy.approvalRule(skill: skill.id, of: subject) {
                    if skill.approval == .allow { records[index].skills[skillIndex].approval = .ask }
                    records[index].policyAskedSkills.insert(skill.id)
                    records[index].policyNotes.append("skill \(skill.id) always needs approval by the administrator's policy \(rule.label)")
                }
            }
        }
        for index in instructions.indices {
            let record = instructions[index]
            let digest = { try? FileDigest.sha256(ofFile: record.folder + "/SKILL.md") }
            if let reason = policy.blockingReason(instructionSkill: record.id, digest: digest) {
                if record.status != .invalid {
                    instructions[index].status = .denied
                    instructions[index].error = reason
                }
            }
        }
    }
}
