import Foundation

/// A Python peer from PyPI in a virtual environment of its own under `.build/peers/<name>`, created and
/// filled by the test that needs it on first use (a peer we did not write is the test).
public struct PythonVirtualEnvironment: Sendable {
    /// The folder name under `.build/peers/`.
    public let name: String
    /// What `pip install` gets (pinned where expectations were checked against a version).
    public let packages: [String]
    /// Python code that succeeds only when the environment is usable (e.g. `import mcp.client.stdio`).
    public let probe: String

    private static let lock = NSLock()

    public init(name: String, packages: [String], probe: String) {
        self.name = name
        self.packages = packages
        self.probe = probe
    }

    /// The environment's folder.
    public var folder: String { TestPackage.root + "/.build/peers/" + name }

    /// The environment's python, after creating the environment and installing the packages when the
    /// probe fails.
    public func python() throws -> String {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        let python = folder + "/bin/python"
        if (try? TestProcess.run(python, ["-c", probe]))?.status == 0 { return python }
        try TestProcess.output("/usr/bin/env", ["python3", "-m", "venv", folder])
        try TestProcess.output(
            python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
        return python
    }
}
