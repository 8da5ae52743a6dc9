import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost pack DIR|SO… [--key FILE | --unsigned]`: one signed `.skillpkg` to distribute a plugin.
enum PackCommand: Command {
    static let name = "pack"
    static let summary = "pack a plugin (one .so per architecture, manifest, README, license) into a signed .skillpkg"
    static let help = """
        usage: skillhost pack DIR | SO... (--key FILE | --unsigned) [--output FILE] [--readme FILE] [--license FILE] [--json]

        Makes one plugin package, NAME-VERSION.skillpkg (a zip, docs/packages.md): the plugin library for
        each architecture it was built for (plugin/<arch>/<id>.so), its manifest, its README and license,
        package.json (every file's SHA-256) and package.json.minisig, minisign's signature of it. The
        library for this machine is validated first, as 'skillhost validate' does. Users install the
        package with 'skillhost install FILE.skillpkg' after trusting your public key ('skillhost keys
        trust YOUR.pub'); 'minisign -Vm package.json -p YOUR.pub' checks it too.

        DIR is a plugin package folder: its out/*.so and out/<x86_64|aarch64|riscv64>/*.so (else its *.so),
        and its README.md and LICENSE (LICENSE.md, LICENSE.txt, COPYING); the package goes to DIR/out/.
        Or give the .so files, one per architecture; the package goes beside the first.

        Options:
          --key FILE        sign with this minisign secret key ('skillhost keys generate', 'minisign -G'); a
                            password-protected key asks for its password on the terminal, or reads it from
                            SKILLHOST_KEY_PASSWORD or the first line of stdin
          --unsigned        make an unsigned package (users must pass --allow-unsigned to install it)
          --output FILE     where to write the package
          --readme FILE, --license FILE   the files to include instead of the ones found
          --json            print {"path","plugin","version","architectures","signed_by","size","notes"}

        Exit codes: \(ExitCode.success) packed, \(ExitCode.invalidPlugin) the library is invalid or none is for this machine, \(ExitCode.invalidArguments) a bad key or
        arguments, \(ExitCode.notFound) no such file, \(ExitCode.pluginCrashed) the library crashed the checker.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: ["--unsigned", "--json"], options: ["--key", "--output", "--readme", "--license"])
        guard !parsed.positionals.isEmpty else { throw UsageError("expected a plugin folder or .so files") }
        let keyFile = parsed.options["--key"]
        guard (keyFile != nil) != parsed.has("--unsigned") else {
            throw UsageError(keyFile == nil
                ? "pass --key FILE to sign the package (make a key with 'skillhost keys generate'), or --unsigned"
                : "--key and --unsigned exclude each other")
        }
        var request = PackRequest(
            sources: parsed.positionals, output: parsed.options["--output"], readme: parsed.options["--readme"],
            license: parsed.options["--license"])
        if let keyFile { request.key = try readKey(keyFile) }
        let report = try HostOptions.host(parsed).pack(request)
        if parsed.has("--json") {
            HostOptions.printJSON([
                "path": .string(report.path), "plugin": .string(report.pluginID), "version": .string(report.version),
                "architectures": .array(report.architectures.map(JSONValue.string)),
                "signed_by": report.signer.map { .string($0.id) } ?? .null, "size": .int(Int64(report.size)),
                "notes": .array(report.notes.map(JSONValue.string)),
            ])
        } else {
            let signed = report.signer.map { "signed with key \($0.id)" } ?? "unsigned"
            print("packed \(report.pluginID) \(report.version) (\(report.architectures.joined(separator: ", ")), \(signed)) into \(report.path)")
            for note in report.notes { ErrorReporter.printError("note: \(note)") }
        }
        return ExitCode.success
    }

    /// The secret key in `file`, asking for its password when it has one.
    static func readKey(_ file: String) throws -> MinisignSecretKey {
        guard let data = FileManager.default.contents(atPath: file), data.count < 64 << 10 else {
            throw HostError(.notFound, "cannot read the key \(file); make one with 'skillhost keys generate' or give the file 'minisign -G' wrote")
        }
        return try MinisignSecretKey(parsing: String(decoding: data, as: UTF8.self), source: file) { () throws(HostError) in
            try KeyPassword.read(for: file)
        }
    }
}

/// The password of a protected secret key: `SKILLHOST_KEY_PASSWORD`, else asked on the terminal (not
/// echoed), else the first line of stdin.
enum KeyPassword {
    static func read(for file: String) throws(HostError) -> String {
        if let password = ProcessInfo.processInfo.environment["SKILLHOST_KEY_PASSWORD"] { return password }
        if isatty(0) == 1 {
            FileHandle.standardError.write(Data("Password for \(file): ".utf8))
            var settings = termios()
            tcgetattr(0, &settings)
            var silent = settings
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &silent)
            defer {
                tcsetattr(0, TCSANOW, &settings)
                FileHandle.standardError.write(Data("\n".utf8))
            }
            guard let line = readLine(strippingNewline: true) else {
                throw HostError(.invalidArguments, "no password given for \(file)")
            }
            return line
        }
        guard let line = readLine(strippingNewline: true) else {
            throw HostError(.invalidArguments, "\(file) is password-protected: give the password on the terminal, on stdin, or in SKILLHOST_KEY_PASSWORD")
        }
        return line
    }
}
