import Foundation

/// The fuzz regressions (`Tests/Fuzz/regressions/<target>/`) and seeds (`Tests/Fuzz/corpus/<target>/`) that
/// each `FuzzReplayTests` replays through the same entry points as `Tests/Fuzz/Targets/`.
public enum FuzzCorpus {
    /// Every input of the named fuzz targets, regressions first, each with its name
    /// (`regressions/<target>/<file>`), in a stable order.
    public static func inputs(_ targets: String...) -> [(name: String, bytes: [UInt8])] {
        inputs(targets)
    }

    /// Every input of the named fuzz targets (see `inputs(_:)`).
    public static func inputs(_ targets: [String]) -> [(name: String, bytes: [UInt8])] {
        var found: [(name: String, bytes: [UInt8])] = []
        for folder in ["regressions", "corpus"] {
            for target in targets {
                let directory = TestPackage.root + "/Tests/Fuzz/\(folder)/\(target)"
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                for name in names.sorted() {
                    if let data = FileManager.default.contents(atPath: directory + "/" + name) {
                        found.append(("\(folder)/\(target)/\(name)", Array(data)))
                    }
                }
            }
        }
        return found
    }
}
