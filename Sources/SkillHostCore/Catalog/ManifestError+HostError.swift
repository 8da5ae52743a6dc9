import ManifestCheck

extension ManifestError {
    /// The same as a ``HostError`` of kind `invalidPlugin`, with the problems as details.
    public var hostError: HostError {
        HostError(.invalidPlugin, description,
                  details: .array(problems.map { ["pointer": .string($0.pointer), "message": .string($0.message)] }))
    }
}
