import SkillJSON

/// What ``SkillHost/pack(_:)`` packs.
public struct PackRequest: Sendable {
    /// One plugin package folder (its `out/*.so` and `out/<arch>/*.so`, else its `*.so`; README and license
    /// from the folder), or the `.so` files themselves, one per architecture.
    public var sources: [String]
    /// The package file; default `<id>-<version>.skillpkg` in the folder's `out/` (or beside the first `.so`).
    public var output: String?
    /// The key to sign with; nil makes an unsigned package.
    public var key: MinisignSecretKey?
    /// A readme and a license file; default the folder's (`README.md`, `LICENSE`…), for `.so` files the ones
    /// beside them or in the folder above.
    public var readme: String?
    public var license: String?

    public init(sources: [String], output: String? = nil, key: MinisignSecretKey? = nil, readme: String? = nil, license: String? = nil) {
        self.sources = sources
        self.output = output
        self.key = key
        self.readme = readme
        self.license = license
    }
}

/// What ``SkillHost/pack(_:)`` made.
public struct PackReport: Sendable {
    public var path: String
    public var pluginID: String
    public var version: String
    /// The architectures it holds libraries for, sorted.
    public var architectures: [String]
    /// The key that signed it; nil when unsigned.
    public var signer: MinisignPublicKey?
    /// Its size in bytes.
    public var size: Int
    /// What the author should know, one line each (no license, a library not checked by loading).
    public var notes: [String]
}

extension SkillHost {
    /// Packs a plugin into one `.skillpkg` (``PluginPackage``): the library for this machine is validated
    /// as `skillhost validate` does (in the sandboxed scanner) and its manifest stored beside it; libraries
    /// for other architectures are checked as ELF files for theirs. The package file is written atomically.
    /// - Throws: ``HostError`` `invalidPlugin` (an invalid library, none for this machine, two for one
    ///   architecture), `notFound`, `invalidArguments`, `io`.
    public func pack(_ request: PackRequest) throws(HostError) -> PackReport {
        var (libraries, folder) = try Self.packSources(request.sources)
        var notes: [String] = []
        var byArchitecture: [String: String] = [:]
        for library in libraries {
            let header = try Posix.readPrefix(ofFile: library, count: 64)
            guard let machine = ELFCheck.machine(of: header), let architecture = ELFCheck.architecture(ofMachine: machine) else {
                throw HostError(.invalidPlugin, "\(library): not a 64-bit ELF library for x86_64, aarch64 or riscv64; build the plugin with 'build.sh'")
            }
            if let other = byArchitecture[architecture] {
                throw HostError(.invalidArguments, "\(other) and \(library) are both \(architecture) libraries; give one per architecture")
            }
            byArchitecture[architecture] = library
        }
        libraries = byArchitecture.values.sorted()
        let hostArchitecture = ELFCheck.architecture(ofMachine: ELFCheck.hostMachine) ?? "this machine"
        guard let hostLibrary = byArchitecture[hostArchitecture] else {
            throw HostError(
                .invalidPlugin,
                "no \(hostArchitecture) library among \(libraries.joined(separator: ", ")): pack needs one for this machine to read and check the manifest")
        }
        let report = try validate(path: hostLibrary)
        guard report.isValid, let manifest = report.manifest else {
            throw HostError(
                report.isBroken ? .pluginCrashed : .invalidPlugin,
                "not packed: \(report.problems.joined(separator: "; ")); fix the plugin and check it with 'skillhost validate \(hostLibrary)'")
        }
        var files: [(path: String, bytes: [UInt8])] = [
            (PluginPackage.manifestName, Array((manifest.document.serialized(options: .prettyPrinted) + "\n").utf8))
        ]
        for (architecture, library) in byArchitecture.sorted(by: { $0.key < $1.key }) {
            let bytes = try Posix.readFile(atPath: library, limit: PluginPackage.limits.maximumEntrySize)
            let machine = PluginPackage.machine(ofArchitecture: architecture) ?? 0
            do {
                try ELFCheck.check(bytes: bytes, path: library, machine: machine)
            } catch {
                throw HostError(.invalidPlugin, "not packed: \(error.message)")
            }
            files.append((PluginPackage.libraryPath(architecture, pluginID: manifest.id), bytes))
            if architecture != hostArchitecture {
                notes.append("\(library) (\(architecture)) is packed unloaded: this machine cannot run it, so check it with 'skillhost validate' on \(architecture)")
            }
        }
        for (given, names, what) in [(request.readme, PluginPackage.readmeNames, "readme"), (request.license, PluginPackage.licenseNames, "license")] {
            let found = given ?? Self.firstFile(named: names, in: folder.map { [$0] } ?? Self.nearby(hostLibrary))
            guard let found else {
                if what == "license" { notes.append("no LICENSE: users cannot tell on what terms they may use the plugin; add one (or pass --license FILE)") }
                continue
            }
            let name = String(found.split(separator: "/").last ?? "")
            let stored = (what == "readme" ? PluginPackage.readmeNames : PluginPackage.licenseNames).contains(name)
                ? name : (what == "readme" ? "README.md" : "LICENSE")
            files.append((stored, try Posix.readFile(atPath: found, limit: 1 << 20)))
        }
        let index = PluginPackage.index(pluginID: manifest.id, version: manifest.version, abiVersion: manifest.abiVersion, files: files)
        var writer = ZipWriter()
        try writer.add(PluginPackage.indexName, index)
        if let key = request.key {
            let comment = "timestamp:\(Int(Posix.unixSeconds()))\tfile:\(PluginPackage.indexName)\thashed"
            let signature = try MinisignSignature.sign(index, with: key, trustedComment: comment)
            try writer.add(PluginPackage.signatureName, Array(signature.fileText.utf8))
        }
        for file in files { try writer.add(file.path, file.bytes) }
        let bytes = writer.bytes
        let output = request.output.map(Posix.absolutePath)
            ?? (folder.map { Posix.exists($0 + "/out") ? $0 + "/out" : $0 } ?? Posix.directoryName(of: hostLibrary))
                + "/\(manifest.id)-\(manifest.version).\(PluginPackage.fileExtension)"
        try Posix.writeFileAtomically(output, bytes: bytes, mode: 0o644)
        return PackReport(
            path: output, pluginID: manifest.id, version: manifest.version, architectures: byArchitecture.keys.sorted(),
            signer: request.key?.publicKey, size: bytes.count, notes: notes)
    }

    /// The libraries to pack and the package folder (nil when `.so` files were given).
    private static func packSources(_ sources: [String]) throws(HostError) -> (libraries: [String], folder: String?) {
        guard !sources.isEmpty else { throw HostError(.invalidArguments, "pack needs a plugin folder or its .so files") }
        if sources.count == 1, (try? Posix.status(ofPath: sources[0]))?.isDirectory == true {
            var folder = Posix.absolutePath(sources[0])
            while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
            var libraries: [String] = []
            let out = folder + "/out"
            for base in Posix.exists(out) ? [out] : [folder] {
                libraries += (Posix.directoryEntries(base) ?? []).filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }.sorted().map { base + "/" + $0 }
                for architecture in ["x86_64", "aarch64", "riscv64"] {
                    libraries += (Posix.directoryEntries(base + "/" + architecture) ?? [])
                        .filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }.sorted().map { base + "/" + architecture + "/" + $0 }
                }
            }
            guard !libraries.isEmpty else {
                throw HostError(.notFound, "\(folder) has no .so in \(Posix.exists(out) ? "out/" : "it"); build the plugin first ('./build.sh')")
            }
            return (libraries, folder)
        }
        var libraries: [String] = []
        for source in sources {
            let path = Posix.absolutePath(source)
            guard let status = try? Posix.status(ofPath: path) else {
                throw HostError(.notFound, "\(path): no such file or folder; give the plugin folder ('skillhost new' made it) or its built .so files")
            }
            guard status.isRegularFile else { throw HostError(.invalidArguments, "\(path) is not a file; give one plugin folder or .so files") }
            libraries.append(path)
        }
        return (libraries, nil)
    }

    /// The folders a loose library's readme and license are looked for in: its own, then the one above.
    private static func nearby(_ library: String) -> [String] {
        let folder = Posix.directoryName(of: library)
        return [folder, Posix.directoryName(of: folder)]
    }

    private static func firstFile(named names: [String], in folders: [String]) -> String? {
        for folder in folders {
            for name in names where (try? Posix.status(ofPath: folder + "/" + name))?.isRegularFile == true {
                return folder + "/" + name
            }
        }
        return nil
    }
}
