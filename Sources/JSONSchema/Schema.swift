/// A compiled JSON Schema (draft 2020-12): compile once, validate many instances.
///
/// ```swift
/// let schema = try Schema(compiling: parameters)
/// let errors = schema.validate(arguments)   // [] when valid
/// ```
/// Compiling checks the schema against its meta-schema, resolves every `$ref` (against the built-in
/// meta-schemas and ``SchemaOptions/documents``; nothing is fetched) and compiles regexes, so validating
/// never parses or looks anything up again. A `Schema` is immutable and safe to share between threads.
public struct Schema: Sendable {
    private let program: CompiledProgram

    /// Compiles `schema`.
    /// - Throws: ``SchemaError`` with the JSON pointer of the first fault: a keyword with a wrong value,
    ///   an unresolvable reference, an invalid regex, or a schema beyond ``SchemaLimits``.
    public init(compiling schema: JSONValue, options: SchemaOptions = .init()) throws(SchemaError) {
        if options.validatesAgainstMetaSchema {
            try Self.checkAgainstMetaSchema(schema, options: options)
        }
        var compiler = SchemaCompiler(options: options)
        let root = try compiler.compileRoot(schema)
        program = CompiledProgram(root: root, nodes: compiler.allNodes, tracksScope: compiler.usesDynamicScope)
    }

    /// Validates `instance`; returns at most `maxErrors` errors, or `[]` when it is valid.
    public func validate(_ instance: JSONValue, maxErrors: Int = 20) -> [ValidationError] {
        // Most instances are valid: the silent pass proves it without building locations or messages.
        if isValid(instance) { return [] }
        var evaluator = Evaluator(maxErrors: maxErrors, silent: false, tracksScope: program.tracksScope)
        var annotations = Annotations()
        _ = evaluator.evaluate(program.root, instance, &annotations, track: false)
        if evaluator.errors.isEmpty {
            // Every failing keyword reports; this keeps validate() and isValid() consistent regardless.
            return [ValidationError(instanceLocation: "", keywordLocation: "", message: "does not match the schema")]
        }
        return evaluator.errors
    }

    /// Whether `instance` is valid; stops at the first failure and builds no messages.
    public func isValid(_ instance: JSONValue) -> Bool {
        if !program.tracksScope { return withUnsafePointer(to: instance) { program.root.accepts($0, depth: 0) } }
        var evaluator = Evaluator(maxErrors: 1, silent: true, tracksScope: program.tracksScope)
        var annotations = Annotations()
        return evaluator.evaluate(program.root, instance, &annotations, track: false)
    }

    /// Checks `schema` against the meta-schema its `$schema` names (the 2020-12 one when absent); a
    /// meta-schema that is neither built in nor given is not checked.
    private static func checkAgainstMetaSchema(_ schema: JSONValue, options: SchemaOptions) throws(SchemaError) {
        var metaSchema = MetaSchemas.validator
        if case .string(let declared)? = schema["$schema"] {
            let (uri, _) = URIReference.resolve(declared, against: "")
            if uri != MetaSchemas.draft202012 {
                guard let document = options.documents[uri] ?? options.documents[declared] else { return }
                var metaOptions = options
                metaOptions.validatesAgainstMetaSchema = false
                metaOptions.assertFormats = false
                metaSchema = try? Schema(compiling: document, options: metaOptions)
            }
        } else if case .bool = schema {
            return
        }
        guard let metaSchema, let fault = metaSchema.validate(schema, maxErrors: 1).first else { return }
        throw SchemaError(pointer: fault.instanceLocation, message: fault.message)
    }
}

/// The nodes of one compiled schema. Owns every node: keywords, `$ref` links and dynamic anchors refer
/// to nodes without retaining them, so reference cycles cannot leak and validation does no reference
/// counting on schema nodes.
final class CompiledProgram: @unchecked Sendable {
    let root: SchemaNode
    let nodes: [SchemaNode]
    let tracksScope: Bool

    init(root: SchemaNode, nodes: [SchemaNode], tracksScope: Bool) {
        self.root = root
        self.nodes = nodes
        self.tracksScope = tracksScope
    }
}
