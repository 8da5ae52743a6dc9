import SkillJSON

/// A plugin package (`NAME-VERSION.skillpkg`, docs/packages.md): one zip file that carries a plugin for
/// distribution.
///
/// ```
/// package.json               what the package holds: plugin id, version, each file's size and SHA-256
/// package.json.minisig       minisign's signature of package.json (absent: unsigned)
/// manifest.json              the manifest the plugin's library returns
/// README.md, LICENSE         when the author has them (LICENSE.md, LICENSE.txt and COPYING too)
/// plugin/<arch>/<id>.so      the library, one per architecture: x86_64, aarch64, riscv64
/// ```
///
/// Signing `package.json` signs every file, through its digests. Reading a package checks everything that
/// needs no trust decision: the zip (paths, sizes, CRCs), `package.json`'s shape, that the files are exactly
/// those it lists with those digests, and each library's ELF header against its architecture. What remains
/// for an install is the signature (``PackageSignature``), the library's own manifest (the sandboxed
/// scanner) and the policy.
public struct PluginPackage: Sendable {
    /// `package.json`'s `format`.
    public static let format: Int64 = 1
    /// The file name extension.
    public static let fileExtension = "skillpkg"
    static let indexName = "package.json"
    static let signatureName = "package.json.minisig"
    static let manifestName = "manifest.json"
    /// The names a readme and a license may have in a package (and in the folder `pack` reads).
    static let readmeNames = ["README.md", "README", "README.txt"]
    static let licenseNames = ["LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"]
    /// The zip limits: a library up to 256 MiB, 512 MiB in all.
    static let limits = ZipArchive.Limits(
        maximumEntries: 64, maximumTotalSize: 512 << 20, maximumEntrySize: 256 << 20, destination: "the package",
        remedy: "make packages with 'skillhost pack'")
    /// The largest package file read.
    static let maximumFileSize = 512 << 20

    /// The package file's name, for messages.
    public var name: String
    /// The plugin id and version `package.json` names.
    public var pluginID: String
    public var version: String
    /// `package.json`'s bytes, as signed.
    public var index: [UInt8]
    /// The signature, when the package has one.
    public var signature: MinisignSignature?
    /// The manifest the package says its library returns.
    public var manifest: JSONValue
    /// The libraries by architecture name.
    public var libraries: [String: [UInt8]]
    /// Every file but `package.json` and its signature, by path.
    public var files: [String: [UInt8]]

    /// The path of the library for `architecture` inside a package.
    static func libraryPath(_ architecture: String, pluginID: String) -> String { "plugin/\(architecture)/\(pluginID).so" }

    /// Reads and checks a package's bytes.
    /// - Throws: ``HostError`` `invalidPlugin` with one line naming the package, the entry and the fault.
    public init(data: [UInt8], name: String) throws(HostError) {
        func fail(_ reason: String) -> HostError {
            HostError(.invalidPlugin, "\(name): \(reason); not installed (ask the publisher for a package made with 'skillhost pack')")
        }
        let archive = try ZipArchive(data: data, name: name, limits: Self.limits)
        guard let indexEntry = archive.entry(Self.indexName) else { throw fail("no \(Self.indexName): it is not a plugin package") }
        let document: JSONValue
        do { document = try JSONValue(parsing: indexEntry.bytes) } catch {
            throw fail("\(Self.indexName) line \(error.line), column \(error.column): \(error.reason)")
        }
        guard document["format"]?.intValue == Self.format else {
            throw fail("\(Self.indexName) /format is \(document["format"]?.serialized() ?? "missing"), this host reads format \(Self.format); update SkillHost")
        }
        guard let id = document["plugin"]?.stringValue, Identifier.isValid(id), id == Identifier.normalize(id) else {
            throw fail("\(Self.indexName) /plugin is not a plugin id")
        }
        guard let version = document["version"]?.stringValue, SemanticVersion.isValid(version) else {
            throw fail("\(Self.indexName) /version is not a semantic version")
        }
        guard case .object(let listed)? = document["files"] else { throw fail("\(Self.indexName) /files is not an object") }
        var files: [String: [UInt8]] = [:]
        for entry in archive.entries where entry.path != Self.indexName && entry.path != Self.signatureName {
            guard let facts = listed[entry.path] else {
                throw fail("\(entry.path) is in the archive but not in \(Self.indexName) (a file added after packing)")
            }
            let digest = FileDigest.sha256(of: entry.bytes)
            guard facts["sha256"]?.stringValue == digest, facts["size"]?.intValue == Int64(entry.bytes.count) else {
                throw fail("\(entry.path) is not the file \(Self.indexName) lists (its SHA-256 is \(digest)): the package was changed after packing")
            }
            files[entry.path] = entry.bytes
        }
        for path in listed.keys where files[path] == nil {
            throw fail("\(Self.indexName) lists \(path) but the archive does not hold it")
        }
        guard let manifestBytes = files[Self.manifestName], let manifest = try? JSONValue(parsing: manifestBytes) else {
            throw fail("no readable \(Self.manifestName)")
        }
        var libraries: [String: [UInt8]] = [:]
        for (path, bytes) in files where path.hasPrefix("plugin/") {
            let parts = path.split(separator: "/")
            guard parts.count == 3, parts[2] == "\(id).so",
                let machine = Self.machine(ofArchitecture: String(parts[1]))
            else {
                throw fail("\(path) is not plugin/<x86_64|aarch64|riscv64>/\(id).so")
            }
            do {
                try ELFCheck.check(bytes: bytes, path: path, machine: machine)
            } catch {
                throw fail(error.message)
            }
            libraries[String(parts[1])] = bytes
        }
        guard !libraries.isEmpty else { throw fail("it holds no plugin library (plugin/<arch>/\(id).so)") }
        var signature: MinisignSignature?
        if let entry = archive.entry(Self.signatureName) {
            signature = try MinisignSignature(parsing: String(decoding: entry.bytes, as: UTF8.self), source: "\(name): \(Self.signatureName)")
        }
        self.name = name
        self.pluginID = id
        self.version = version
        self.index = indexEntry.bytes
        self.signature = signature
        self.manifest = manifest
        self.libraries = libraries
        self.files = files
    }

    /// The library for this machine.
    /// - Throws: ``HostError`` `invalidPlugin` naming the architectures the package has.
    public func hostLibrary() throws(HostError) -> [UInt8] {
        let architecture = ELFCheck.architecture(ofMachine: ELFCheck.hostMachine) ?? "this machine"
        guard let bytes = libraries[architecture] else {
            throw HostError(
                .invalidPlugin,
                "\(name): no library for \(architecture) (it has \(libraries.keys.sorted().joined(separator: ", "))); not installed (ask the publisher for an \(architecture) build)",
                pluginID: pluginID)
        }
        return bytes
    }

    /// The `e_machine` of an architecture name a package uses.
    static func machine(ofArchitecture name: String) -> UInt16? {
        [62, 183, 243].first { ELFCheck.architecture(ofMachine: $0) == name }
    }

    /// `package.json` for these files: format, plugin, version, ABI, and each file's size and SHA-256
    /// (sorted by path, pretty-printed, so the same files make the same bytes).
    static func index(pluginID: String, version: String, abiVersion: String, files: [(path: String, bytes: [UInt8])]) -> [UInt8] {
        var listed = JSONObject()
        for (path, bytes) in files.sorted(by: { $0.path < $1.path }) {
            listed[path] = ["size": .int(Int64(bytes.count)), "sha256": .string(FileDigest.sha256(of: bytes))]
        }
        let document: JSONValue = [
            "format": .int(format), "plugin": .string(pluginID), "version": .string(version),
            "abi_version": .string(abiVersion), "files": .object(listed),
        ]
        return Array((document.serialized(options: .prettyPrinted) + "\n").utf8)
    }
}
