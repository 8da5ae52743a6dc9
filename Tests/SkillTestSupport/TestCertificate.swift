import Foundation

/// A self-signed certificate for 127.0.0.1, made with the openssl command (the HTTPS client's tests and the
/// HTTPS server's).
public enum TestCertificate {
    /// PEM files of a fresh certificate and its key, in a temporary folder.
    public static func make() throws -> (certificate: String, key: String) {
        let folder = NSTemporaryDirectory() + "skillhost-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem",
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw TestFailure("openssl req failed") }
        return (folder + "/cert.pem", folder + "/key.pem")
    }
}
