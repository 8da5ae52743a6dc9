/// Object keywords: `required`, `dependentRequired`, `properties`, `patternProperties`, `propertyNames`,
/// `dependentSchemas` (`maxProperties` and `minProperties` are a ``CountLimitKeyword``).
final class RequiredKeyword: Keyword, @unchecked Sendable {
    let names: [String]
    init(_ names: [String]) { self.names = names }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for name in names where !object.hasMember(name) {
            valid = false
            Self.reportMissing(name, node, &evaluator)
            if evaluator.stopping { return false }
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        guard case .object(let object) = instance else { return true }
        for name in names where !object.hasMember(name) { return false }
        return true
    }

    /// Reports that the required property `name` is missing (also for ``PropertiesKeyword``, which can check
    /// `required` itself).
    static func reportMissing(_ name: String, _ node: SchemaNode, _ evaluator: inout Evaluator) {
        evaluator.report(node, "required", "missing required property \(ValueText.describe(.string(name)))")
    }
}

final class DependentRequiredKeyword: Keyword, @unchecked Sendable {
    let pairs: [(String, [String])]
    init(_ pairs: [(String, [String])]) { self.pairs = pairs }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for (name, needed) in pairs where object.hasMember(name) {
            for other in needed where !object.hasMember(other) {
                valid = false
                evaluator.report(
                    node, "dependentRequired",
                    "property \(ValueText.describe(.string(name))) requires property \(ValueText.describe(.string(other)))")
                if evaluator.stopping { return false }
            }
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        guard case .object(let object) = instance else { return true }
        for (name, needed) in pairs where object.hasMember(name) {
            for other in needed where !object.hasMember(other) { return false }
        }
        return true
    }
}

/// `properties`; fused with `additionalProperties` when there is no `patternProperties`, so one pass
/// over the instance's members serves both, and with `required` when every required name is a listed
/// property (the pass notes which properties it saw, so required names cost no lookups).
final class PropertiesKeyword: Keyword, @unchecked Sendable {
    let names: NameSet
    let schemas: [NodeRef]
    let additional: ExtraPropertiesKeyword?
    /// Positions (in ``names``) of the required properties, in `required` order.
    let required: [Int]
    private let requiredMask: UInt64

    init(_ members: [(String, SchemaNode)], additional: ExtraPropertiesKeyword? = nil) {
        names = NameSet(members.map(\.0))
        schemas = members.map { NodeRef($0.1) }
        self.additional = additional
        required = []
        requiredMask = 0
    }

    private init(_ base: PropertiesKeyword, required: [Int]) {
        names = base.names
        schemas = base.schemas
        additional = base.additional
        self.required = required
        requiredMask = required.reduce(0) { $0 | 1 << UInt64($1) }
    }

    /// This keyword also checking `required`, when all its names are listed properties (at most 64).
    func absorbing(_ requiredKeyword: RequiredKeyword) -> PropertiesKeyword? {
        guard self.required.isEmpty, names.names.count <= 64 else { return nil }
        var positions: [Int] = []
        for name in requiredKeyword.names {
            guard let position = names.position(of: name) else { return nil }
            if !positions.contains(position) { positions.append(position) }
        }
        return PropertiesKeyword(self, required: positions)
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        var seen: UInt64 = 0
        if let additional {
            for member in 0..<object.count {
                let (key, value) = object.member(at: member)
                let passed: Bool
                if let position = names.position(of: key) {
                    if position < 64 { seen |= 1 << UInt64(position) }
                    passed = evaluator.evaluate(schemas[position], value, key: key)
                } else {
                    passed = additional.evaluateExtra(value, key: key, node, &evaluator)
                }
                if !passed {
                    valid = false
                    if evaluator.stopping { return false }
                }
            }
            if valid && track { annotations.allProperties = true }
        } else {
            for position in schemas.indices {
                let name = names.names[position]
                guard let value = object[name] else { continue }
                if position < 64 { seen |= 1 << UInt64(position) }
                if evaluator.evaluate(schemas[position], value, key: name) {
                    if track { annotations.insert(property: name) }
                } else {
                    valid = false
                    if evaluator.stopping { return false }
                }
            }
        }
        if seen & requiredMask != requiredMask {
            for position in required where seen & (1 << UInt64(position)) == 0 {
                RequiredKeyword.reportMissing(names.names[position], node, &evaluator)
                if evaluator.stopping { return false }
            }
            return false
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        var seen: UInt64 = 0
        let membersValid = JSONObject.withMembers(at: instance) { keys, values in
            for member in keys.indices {
                let value = values.baseAddress! + member
                if let position = names.position(of: keys[member]) {
                    if position < 64 { seen |= 1 << UInt64(position) }
                    if !schemas[position].accepts(value, depth: depth) { return false }
                } else if let additional, !additional.acceptsExtra(value, depth: depth) {
                    return false
                }
            }
            return true
        }
        guard let membersValid else { return true }  // not an object
        return membersValid && seen & requiredMask == requiredMask
    }
}

final class PatternPropertiesKeyword: Keyword, @unchecked Sendable {
    let members: [(ECMARegex, NodeRef)]
    init(_ members: [(ECMARegex, SchemaNode)]) { self.members = members.map { ($0.0, NodeRef($0.1)) } }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for position in 0..<object.count {
            let (key, value) = object.member(at: position)
            for (regex, schema) in members where regex.matches(key) {
                if evaluator.evaluate(schema, value, key: key) {
                    if track { annotations.insert(property: key) }
                } else {
                    valid = false
                    if evaluator.stopping { return false }
                }
            }
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        JSONObject.withMembers(at: instance) { keys, values in
            for member in keys.indices {
                for (regex, schema) in members where regex.matches(keys[member]) {
                    if !schema.accepts(values.baseAddress! + member, depth: depth) { return false }
                }
            }
            return true
        } ?? true
    }
}

final class PropertyNamesKeyword: Keyword, @unchecked Sendable {
    let schema: NodeRef
    init(_ schema: SchemaNode) { self.schema = NodeRef(schema) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        for key in object.keys {
            var ignored = Annotations()
            if !evaluator.probe(schema, .string(key), &ignored, track: false) {
                let reason = evaluator.reporting ? evaluator.explain(schema.node, .string(key), limit: 1).first?.message ?? "" : ""
                evaluator.report(node, "propertyNames", "invalid property name \(ValueText.describe(.string(key))): \(reason)")
                return false
            }
        }
        return true
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard case .object(let object) = instance.pointee else { return true }
        for key in object.keys where !withUnsafePointer(to: .string(key), { schema.accepts($0, depth: depth) }) {
            return false
        }
        return true
    }
}

final class DependentSchemasKeyword: Keyword, @unchecked Sendable {
    let members: [(String, NodeRef)]
    init(_ members: [(String, SchemaNode)]) { self.members = members.map { ($0.0, NodeRef($0.1)) } }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for (name, schema) in members where object.hasMember(name) {
            if !evaluator.evaluate(schema, instance, &annotations, track: track) {
                valid = false
                if evaluator.stopping { return false }
            }
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard case .object(let object) = instance.pointee else { return true }
        for (name, schema) in members where object.hasMember(name) && !schema.accepts(instance, depth: depth) {
            return false
        }
        return true
    }
}
