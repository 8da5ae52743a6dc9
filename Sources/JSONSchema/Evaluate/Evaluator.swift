/// Runs a compiled schema over one instance. In silent mode (``Schema/isValid(_:)``, and inside `anyOf`
/// branches, `not`, `if` and `contains`) it stops at the first failure and builds no messages.
struct Evaluator {
    /// One step of the instance location.
    enum PathToken {
        case key(String)
        case index(Int)
    }

    /// The most errors to collect.
    let maxErrors: Int
    /// Whether `$dynamicRef` is used, so the dynamic scope must be tracked.
    let tracksScope: Bool
    /// Errors so far.
    var errors: [ValidationError] = []
    /// Above zero while failures are not reported.
    var silent: Int
    /// The instance location being evaluated (kept only while reporting).
    var path: [PathToken] = []
    /// Schema resources entered, outermost first.
    var scope: [SchemaResource] = []
    /// Nested subschemas being evaluated.
    var depth = 0

    init(maxErrors: Int, silent: Bool, tracksScope: Bool) {
        self.maxErrors = max(1, maxErrors)
        self.silent = silent ? 1 : 0
        self.tracksScope = tracksScope
        if !silent { path.reserveCapacity(16) }
    }

    /// Whether evaluation may stop at the first failure.
    var stopping: Bool { silent > 0 || errors.count >= maxErrors }

    /// Whether failures are being reported.
    var reporting: Bool { silent == 0 }

    /// The current instance location as a JSON pointer.
    var instanceLocation: String {
        var pointer = ""
        for token in path {
            switch token {
            case .key(let key): pointer += "/" + JSONPointer.escape(key)
            case .index(let index): pointer += "/" + String(index)
            }
        }
        return pointer
    }

    /// Records a failure of `keyword` in `node` at the current instance location (when reporting).
    mutating func report(_ node: SchemaNode, _ keyword: String, _ message: @autoclosure () -> String) {
        guard silent == 0, errors.count < maxErrors else { return }
        errors.append(
            ValidationError(
                instanceLocation: instanceLocation, keywordLocation: node.keywordLocation(keyword), message: message()))
    }

    /// Evaluates `node` against `instance`; when `track` is set, adds what it evaluated to `annotations`.
    mutating func evaluate(
        _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, track: Bool
    ) -> Bool {
        guard !track, !node.collectsAnnotations, !tracksScope, depth < SchemaLimits.maximumEvaluationDepth else {
            return evaluateTracking(node, instance, &annotations, track: track)
        }
        // The hot path: no annotations, no dynamic scope. Keywords only write annotations when
        // tracking, so the caller's are passed through untouched.
        depth += 1
        defer { depth -= 1 }
        var valid = true
        if let types = node.types, !types.matches(instance) {
            TypeKeyword.report(types, instance, node, &self)
            if stopping { return false }
            valid = false
        }
        for reference in node.keywordRefs where !reference.evaluate(instance, node, &self, &annotations, track: false) {
            valid = false
            if stopping { return false }
        }
        return valid
    }

    /// ``evaluate(_:_:_:track:)`` with the depth bound, the dynamic scope and annotation collection.
    @inline(never)
    private mutating func evaluateTracking(
        _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, track: Bool
    ) -> Bool {
        if depth >= SchemaLimits.maximumEvaluationDepth {
            report(
                node, "",
                "schema nesting exceeds \(SchemaLimits.maximumEvaluationDepth) levels here "
                    + "(a $ref cycle that never descends into the instance?)")
            return false
        }
        depth += 1
        defer { depth -= 1 }
        var entered = false
        if tracksScope, let resource = node.resource, scope.last !== resource {
            scope.append(resource)
            entered = true
        }
        defer { if entered { scope.removeLast() } }
        var valid = true
        if let types = node.types, !types.matches(instance) {
            TypeKeyword.report(types, instance, node, &self)
            if stopping { return false }
            valid = false
        }
        let collecting = track || node.collectsAnnotations
        var local = Annotations()
        for reference in node.keywordRefs where !reference.evaluate(instance, node, &self, &local, track: collecting) {
            valid = false
            if stopping { return false }
        }
        if valid && track { annotations.merge(local) }
        return valid
    }

    /// Whether `node` accepts `value` on ``SchemaNode/accepts(_:depth:)``'s fast path, which a report
    /// uses to skip valid members and items (only without a dynamic scope, which that path lacks).
    private func skipsValid(_ node: SchemaNode, _ value: JSONValue) -> Bool {
        !tracksScope && withUnsafePointer(to: value) { node.accepts($0, depth: depth) }
    }

    /// Evaluates `node` against the member `key` of the current object.
    @inline(__always)
    mutating func evaluate(_ node: SchemaNode, _ value: JSONValue, key: String) -> Bool {
        var ignored = Annotations()
        if silent > 0 { return evaluate(node, value, &ignored, track: false) }
        if skipsValid(node, value) { return true }
        path.append(.key(key))
        defer { path.removeLast() }
        return evaluate(node, value, &ignored, track: false)
    }

    /// Evaluates `node` against the element `index` of the current array.
    @inline(__always)
    mutating func evaluate(_ node: SchemaNode, _ value: JSONValue, index: Int) -> Bool {
        var ignored = Annotations()
        if silent > 0 { return evaluate(node, value, &ignored, track: false) }
        if skipsValid(node, value) { return true }
        path.append(.index(index))
        defer { path.removeLast() }
        return evaluate(node, value, &ignored, track: false)
    }

    /// ``evaluate(_:_:_:track:)`` for an unretained node reference.
    @inline(__always)
    mutating func evaluate(_ reference: NodeRef, _ instance: JSONValue, _ annotations: inout Annotations, track: Bool) -> Bool {
        reference.with { evaluate($0, instance, &annotations, track: track) }
    }

    /// ``evaluate(_:_:key:)`` for an unretained node reference.
    @inline(__always)
    mutating func evaluate(_ reference: NodeRef, _ value: JSONValue, key: String) -> Bool {
        reference.with { evaluate($0, value, key: key) }
    }

    /// ``evaluate(_:_:index:)`` for an unretained node reference.
    @inline(__always)
    mutating func evaluate(_ reference: NodeRef, _ value: JSONValue, index: Int) -> Bool {
        reference.with { evaluate($0, value, index: index) }
    }

    /// ``probe(_:_:_:track:)`` for an unretained node reference.
    mutating func probe(_ reference: NodeRef, _ instance: JSONValue, _ annotations: inout Annotations, track: Bool) -> Bool {
        reference.with { probe($0, instance, &annotations, track: track) }
    }

    /// Evaluates `node` without reporting, e.g. an `anyOf` branch.
    mutating func probe(_ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, track: Bool) -> Bool {
        silent += 1
        defer { silent -= 1 }
        return evaluate(node, instance, &annotations, track: track)
    }

    /// The errors `node` would report at the current location (for explaining failed alternatives).
    func explain(_ node: SchemaNode, _ instance: JSONValue, limit: Int) -> [ValidationError] {
        var inner = Evaluator(maxErrors: limit, silent: false, tracksScope: tracksScope)
        inner.path = path
        inner.scope = scope
        inner.depth = depth
        var ignored = Annotations()
        _ = inner.evaluate(node, instance, &ignored, track: false)
        return inner.errors
    }
}
