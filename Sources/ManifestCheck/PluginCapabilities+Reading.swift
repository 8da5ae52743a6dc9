import SkillJSON

extension PluginCapabilities {
    /// One thing wrong in a `capabilities` object: where (a JSON pointer below the object's own) and what.
    public struct Problem: Sendable, Equatable {
        /// JSON pointer of the offending member, from the document root.
        public var pointer: String
        /// What is wrong and how to fix it.
        public var message: String
    }

    /// Reads a `capabilities` object (manifest or registry), strictly: unknown members, wrong types and
    /// unknown words are problems, each with its JSON pointer.
    /// - Parameters:
    ///   - value: the JSON value of the `capabilities` member.
    ///   - pointer: where it sits, e.g. `/capabilities` or `/skills/0/capabilities`.
    /// - Returns: the set, or nil with at least one problem.
    public static func read(_ value: JSONValue, at pointer: String) -> (PluginCapabilities?, [Problem]) {
        var problems: [Problem] = []
        func problem(_ at: String, _ message: String) { problems.append(Problem(pointer: at, message: message)) }
        guard case .object(let object) = value else {
            problem(pointer, "must be an object like {\"filesystem\": [], \"network\": \"none\", \"processes\": false}, got \(value.typeName)")
            return (nil, problems)
        }
        for (key, _) in object where !["filesystem", "network", "processes", "env"].contains(key) {
            problem(pointer + "/" + JSONPointer.escape(key), "is not a capability; use filesystem, network, processes or env")
        }
        var result = PluginCapabilities()
        if let list = object["filesystem"] {
            if case .array(let entries) = list {
                for (index, entry) in entries.enumerated() {
                    if let grant = readPath(entry, at: "\(pointer)/filesystem/\(index)", problem) {
                        result.filesystem.append(grant)
                    }
                }
            } else {
                problem(pointer + "/filesystem", "must be an array of {\"root\": …, \"access\": …} objects, got \(list.typeName)")
            }
        }
        if let network = object["network"] {
            switch network {
            case .string("none"): result.network = .none
            case .string("any"): result.network = .any
            case .object(let members) where members.count == 1 && members["tcp_connect"] != nil:
                let ports = members["tcp_connect"]?.arrayValue ?? []
                let numbers = ports.compactMap { $0.intValue }.filter { (1...65535).contains($0) }.map { Int($0) }
                if ports.isEmpty || numbers.count != ports.count {
                    problem(pointer + "/network/tcp_connect", "must be a non-empty array of port numbers 1-65535, got \(members["tcp_connect"]!.serialized())")
                } else {
                    result.network = .tcpConnect(numbers)
                }
            default:
                problem(pointer + "/network", "must be \"none\", \"any\" or {\"tcp_connect\": [443]}, got \(network.serialized())")
            }
        }
        if let processes = object["processes"] {
            if let flag = processes.boolValue {
                result.processes = flag
            } else {
                problem(pointer + "/processes", "must be true or false, got \(processes.serialized())")
            }
        }
        if let names = object["env"] {
            if case .array(let items) = names {
                for (index, item) in items.enumerated() {
                    guard let name = item.stringValue else {
                        problem("\(pointer)/env/\(index)", "must be a variable name like \"GITHUB_TOKEN\", got \(item.typeName)")
                        continue
                    }
                    if let why = environmentNameProblem(name) {
                        problem("\(pointer)/env/\(index)", why)
                    } else if result.environment.contains(name) {
                        problem("\(pointer)/env/\(index)", "names \(name) twice; list each variable once")
                    } else {
                        result.environment.append(name)
                    }
                }
            } else {
                problem(pointer + "/env", "must be an array of variable names like [\"GITHUB_TOKEN\"], got \(names.typeName)")
            }
        }
        return problems.isEmpty ? (result, []) : (nil, problems)
    }

    private static func readPath(
        _ value: JSONValue, at pointer: String, _ problem: (String, String) -> Void
    ) -> PathGrant? {
        guard case .object(let entry) = value else {
            problem(pointer, "must be an object like {\"root\": \"home\", \"path\": \"Documents\", \"access\": \"read\"}, got \(value.typeName)")
            return nil
        }
        for (key, _) in entry where !["root", "key", "path", "access"].contains(key) {
            problem(pointer + "/" + JSONPointer.escape(key), "is not a filesystem member; use root, key, path and access")
        }
        guard let rootText = entry["root"]?.stringValue, let root = Root(rawValue: rootText) else {
            problem(pointer + "/root", "must be \"data\", \"config\" or \"home\", got \(entry["root"]?.serialized() ?? "nothing")")
            return nil
        }
        guard let accessText = entry["access"]?.stringValue, let access = Access(rawValue: accessText) else {
            problem(pointer + "/access", "must be \"read\" or \"read-write\", got \(entry["access"]?.serialized() ?? "nothing")")
            return nil
        }
        let key = entry["key"]?.stringValue
        let path = entry["path"]?.stringValue
        switch root {
        case .data:
            if entry["key"] != nil || entry["path"] != nil {
                problem(pointer, "root \"data\" takes no key or path: the whole data folder is the plugin's")
                return nil
            }
        case .config:
            guard let key, !key.isEmpty, entry["path"] == nil else {
                problem(pointer + "/key", "root \"config\" needs \"key\": the name of the configuration member holding the path (and no \"path\")")
                return nil
            }
        case .home:
            guard let path, isPlainRelativePath(path), entry["key"] == nil else {
                problem(pointer + "/path", "root \"home\" needs \"path\": a folder relative to the home folder, without \"..\" or a leading \"/\" (and no \"key\"), got \(entry["path"]?.serialized() ?? "nothing")")
                return nil
            }
        }
        return PathGrant(root: root, key: key, path: path, access: access)
    }
}
