extension SkillHost {
    /// A rendering of the catalog (the bytes `list` prints), from the listing cache when nothing the catalog
    /// is made from changed since it was stored; otherwise `render` makes it from a fresh ``catalog()``.
    ///
    /// A fresh rendering is stored only when the inputs were the same before and after building the catalog,
    /// so a file changed meanwhile is never hidden behind a stale listing. (A build that itself updates the
    /// scan cache is such a change: the listing is stored by the next call.)
    /// - Parameters:
    ///   - format: names the rendering (part of the key), e.g. `"list --json"`.
    ///   - render: makes the bytes from the catalog; it must depend on nothing else.
    /// - Throws: ``HostError`` as ``catalog()`` does.
    public func listing(format: String, render: (Catalog) -> [UInt8]) throws(HostError) -> [UInt8] {
        let cache = ListingCache(directory: paths.cache)
        let fingerprint = ListingFingerprint(paths: paths) { () throws(HostError) in try self.registryStore.read() }
        let before = try fingerprint.key(format: format)
        if let output = cache.output(forKey: before) { return output }
        let output = render(try catalog())
        if let after = try? fingerprint.key(format: format), after == before {
            try? cache.store(output, forKey: after)  // a cache: listing works without it
        }
        return output
    }
}
