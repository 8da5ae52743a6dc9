import SkillJSON

extension RegistryCheck {
    /// `publishers`: an object keyed by key id, each `{"key": "<minisign public key line>", "name": "…"}`
    /// whose key has that id (written by `skillhost keys trust`).
    func checkPublishers(_ value: JSONValue?) throws(HostError) {
        guard let value else { return }
        guard case .object(let publishers) = value else {
            throw fail("/publishers", "must be an object keyed by key id (written by 'skillhost keys trust FILE.pub'), got \(value.typeName)")
        }
        for (id, entry) in publishers {
            let pointer = "/publishers/" + JSONPointer.escape(id)
            guard let line = entry["key"]?.stringValue,
                let key = try? MinisignPublicKey(parsing: line, source: pointer), key.id == id
            else {
                throw fail(pointer, "must be {\"key\": \"<the public key line of a minisign .pub file>\", \"name\": \"…\"} with a key whose id is \(id)")
            }
            if let name = entry["name"], name.stringValue == nil {
                throw fail(pointer + "/name", "must be a string, got \(name.typeName)")
            }
        }
    }

    /// `plugins.<id>.publisher`: the key id that signed the installed package (written by `skillhost install`).
    func checkPublisherReference(_ value: JSONValue?, _ pointer: String) throws(HostError) {
        guard let value, !value.isNull else { return }
        guard let text = value.stringValue, text.count == 16, text.allSatisfy(\.isHexDigit) else {
            throw fail(pointer, "must be a key id of 16 hex digits (written by 'skillhost install FILE.skillpkg'), got \(value.serialized())")
        }
    }
}
