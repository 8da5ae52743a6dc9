import Foundation
import JSONSchema

/// The vendored official JSON Schema Test Suite (draft 2020-12) and its remote documents.
enum TestSuiteData {
    /// One test case of a suite file.
    struct Case {
        var description: String
        var data: JSONValue
        var valid: Bool
    }

    /// One group: a schema and its cases.
    struct Group {
        var description: String
        var schema: JSONValue
        var cases: [Case]
    }

    /// Pass/fail counts for one file.
    struct Tally {
        var passed = 0
        var failures: [String] = []
        var total: Int { passed + failures.count }
    }

    static let root: URL = {
        let bundle = Bundle.module.resourceURL ?? URL(fileURLWithPath: ".")
        return bundle.appendingPathComponent("Fixtures/suite")
    }()

    static let testsFolder = root.appendingPathComponent("tests/draft2020-12")

    /// Every remote document, keyed by the URI the suite serves it under (http://localhost:1234/…).
    static let remotes: [String: JSONValue] = {
        var documents: [String: JSONValue] = [:]
        let folder = root.appendingPathComponent("remotes")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [:] }
        for case let url as URL in walker where url.pathExtension == "json" {
            let relative = url.path.replacingOccurrences(of: folder.path + "/", with: "")
            if let data = try? Data(contentsOf: url), let value = try? JSONValue(parsing: Array(data)) {
                documents["http://localhost:1234/" + relative] = value
            }
        }
        return documents
    }()

    /// The `.json` file names in a folder of the suite ("" = required, "optional", "optional/format").
    static func files(in subfolder: String) -> [String] {
        let folder = subfolder.isEmpty ? testsFolder : testsFolder.appendingPathComponent(subfolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { subfolder.isEmpty ? $0 : subfolder + "/" + $0 }
    }

    /// The groups of one file.
    static func groups(_ file: String) throws -> [Group] {
        let data = try Data(contentsOf: testsFolder.appendingPathComponent(file))
        let value = try JSONValue(parsing: Array(data))
        return (value.arrayValue ?? []).map { group in
            Group(
                description: group["description"]?.stringValue ?? "",
                schema: group["schema"] ?? .bool(true),
                cases: (group["tests"]?.arrayValue ?? []).map {
                    Case(description: $0["description"]?.stringValue ?? "", data: $0["data"] ?? .null,
                        valid: $0["valid"]?.boolValue ?? false)
                })
        }
    }

    /// Runs every case of `file` through ``Schema``; format assertion on for `optional/format/`.
    static func run(_ file: String) throws -> Tally {
        var options = SchemaOptions()
        options.documents = remotes
        options.assertFormats = file.hasPrefix("optional/format/")
        var tally = Tally()
        for group in try groups(file) {
            let schema: Schema
            do {
                schema = try Schema(compiling: group.schema, options: options)
            } catch {
                for test in group.cases { tally.failures.append("\(group.description) / \(test.description): \(error)") }
                continue
            }
            for test in group.cases {
                let valid = schema.isValid(test.data)
                let errors = schema.validate(test.data)
                if valid == test.valid && errors.isEmpty == test.valid {
                    tally.passed += 1
                } else {
                    tally.failures.append(
                        "\(group.description) / \(test.description): expected \(test.valid ? "valid" : "invalid"), "
                            + "isValid=\(valid), validate=\(errors.map(\.description))")
                }
            }
        }
        return tally
    }
}
