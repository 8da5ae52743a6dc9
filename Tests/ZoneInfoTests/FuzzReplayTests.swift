import Testing
import ZoneInfo

/// Replays the TZif fuzz seeds and regressions (Tests/Fuzz/corpus/tzif, regressions/tzif) through the same
/// entry point as Tests/Fuzz/Targets/TZifFuzz.swift: every input reads or fails with a message and byte.
@Suite struct FuzzReplayTests {
    @Test func tzifInputsReadOrFailWithAByte() {
        let inputs = FuzzCorpus.inputs("tzif")
        #expect(inputs.count >= 5)
        for (name, bytes) in inputs {
            do {
                let rules = ZoneRules(try TZifFile(parsing: bytes))
                for instant: Int64 in [Int64.min, Int64.min / 4, -1, 0, 1_796_000_000, Int64.max / 4, Int64.max] {
                    _ = rules.localTimeType(at: instant)
                    _ = rules.resolve(localSeconds: instant)
                    _ = rules.isDaylightSavingWithPositiveSavings(at: instant)
                }
            } catch {
                #expect(!error.message.isEmpty, "\(name)")
                #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name): offset \(error.offset) of \(bytes.count)")
            }
        }
    }
}
