import Foundation

/// The port a peer writes to a file once it listens (proxy.py's `--port-file`, `litellm_proxy.py`'s `--ready`).
enum PortFile {
    /// The port in the file at `path`, looked for every 0.1 s while `process` runs, for at most `seconds`;
    /// nil when it did not come (the process ended first, or the time ran out).
    static func wait(for path: String, from process: Process, seconds: Double) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return port
            }
            guard process.isRunning else { return nil }
            usleep(100_000)
        }
        return nil
    }
}
