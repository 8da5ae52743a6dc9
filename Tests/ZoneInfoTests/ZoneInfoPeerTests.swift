import Foundation
import Testing
import ZoneInfo

/// The TZif reader and zone rules against a real peer: Python's `zoneinfo` reading the very same files
/// (`ZoneInfo.from_file`), for offsets and abbreviations at instants across two centuries (before, between
/// and after the transitions, and past the last one, where the footer's TZ string rules), and for the
/// instants local wall-clock times name (repeated and skipped times included, through `fold`).
@Suite struct ZoneInfoPeerTests {
    /// Zones with something unusual each: 30-minute DST (Lord Howe), negative DST (Dublin, Casablanca),
    /// a skipped day (Apia), +13:45 (Chatham), -03:30 (St John's), version 3 rules with hours past 24
    /// (Nuuk), no DST today (Tokyo, Kolkata), a 2-hour DST (Troll), far-east (Kiritimati).
    static let zones = [
        "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "Europe/Dublin",
        "Africa/Casablanca", "Pacific/Apia", "America/Sao_Paulo", "Asia/Kolkata", "Pacific/Chatham",
        "America/St_Johns", "Antarctica/Troll", "Asia/Tehran", "Pacific/Kiritimati", "UTC", "Etc/GMT+5",
        "America/Nuuk", "Europe/London", "Australia/Sydney", "America/Santiago", "Asia/Gaza", "Europe/Moscow",
    ]

    @Test func offsetsAbbreviationsAndLocalTimesMatchPythonZoneinfo() throws {
        let database = ZoneInfoDirectory.system
        var instants: [Int64] = []
        var generator = SeededGenerator(seed: 9)
        // 1900 … 2100: a regular grid, plus random instants.
        for step in stride(from: Int64(-2_208_988_800), to: 4_102_444_800, by: 3_000_017) { instants.append(step) }
        for _ in 0..<400 { instants.append(Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        var locals: [Int64] = []
        for _ in 0..<300 { locals.append(Int64.random(in: 0...4_102_444_800, using: &generator)) }
        var requests: [[String: Any]] = []
        var expectedRows: [(zone: String, kind: String, input: Int64, answer: String)] = []
        for name in Self.zones {
            let path = database.path + "/" + name
            guard let file = database.zone(named: name) else {
                Issue.record("cannot read \(path) as TZif")
                continue
            }
            let rules = ZoneRules(file)
            // Around each transition from 1970 to 2040: one second before, at, and after.
            var zoneInstants = instants
            for transition in file.transitions where (0...2_208_988_800).contains(transition) {
                zoneInstants += [transition - 1, transition, transition + 1]
            }
            var zoneLocals = locals
            for transition in file.transitions where (0...2_208_988_800).contains(transition) {
                let before = rules.utcOffset(at: transition - 1)
                let after = rules.utcOffset(at: transition)
                // Wall-clock times inside the gap or the overlap the change makes, and just outside it.
                let local = transition + min(before, after)
                zoneLocals += [local - 1, local, local + abs(after - before) / 2, local + abs(after - before)]
            }
            requests.append(["path": path, "instants": zoneInstants, "locals": zoneLocals])
            for instant in zoneInstants {
                let type = rules.localTimeType(at: instant)
                expectedRows.append((name, "at", instant, "\(type.utcOffset) \(type.abbreviation)"))
            }
            for local in zoneLocals {
                let answer: String
                switch rules.resolve(localSeconds: local) {
                case .unique(let instant): answer = "\(instant) \(instant)"
                case .repeated(let earlier, let later): answer = "\(earlier) \(later)"
                // Python's fold=0 reads a skipped time with the offset before the gap, fold=1 with the one after.
                case .skipped(let offsetBefore):
                    answer = "\(local - offsetBefore) \(local - rules.utcOffset(at: local - offsetBefore))"
                }
                expectedRows.append((name, "local", local, answer))
            }
        }
        let peer = try Self.runPython(requests)
        #expect(peer.count == expectedRows.count, "Python answered \(peer.count) rows for \(expectedRows.count) questions")
        var mismatches = 0
        for (row, answer) in zip(expectedRows, peer) where row.answer != answer {
            mismatches += 1
            if mismatches <= 10 {
                Issue.record("\(row.zone) \(row.kind) \(row.input): ZoneInfo says \(row.answer), Python's zoneinfo \(answer)")
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(expectedRows.count) answers differ")
        #expect(expectedRows.count > 15_000)
    }

    /// Runs Python's zoneinfo over the questions: per zone, "utcoffset-seconds abbreviation" for each instant,
    /// then "fold0-timestamp fold1-timestamp" for each local time.
    static func runPython(_ requests: [[String: Any]]) throws -> [String] {
        let script = """
            import json, sys
            from datetime import datetime, timedelta, timezone
            from zoneinfo import ZoneInfo
            epoch = datetime(1970, 1, 1)
            out = []
            for request in json.load(sys.stdin):
                with open(request["path"], "rb") as f:
                    zone = ZoneInfo.from_file(f)
                for t in request["instants"]:
                    d = datetime.fromtimestamp(t, tz=timezone.utc).astimezone(zone)
                    out.append(f"{int(d.utcoffset().total_seconds())} {d.tzname()}")
                for local in request["locals"]:
                    naive = epoch + timedelta(seconds=local)
                    a = int(naive.replace(tzinfo=zone, fold=0).timestamp())
                    b = int(naive.replace(tzinfo=zone, fold=1).timestamp())
                    out.append(f"{a} {b}")
            print("\\n".join(out))
            """
        let input = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
        let result = try TestProcess.run("/usr/bin/env", ["python3", "-c", script], stdin: input)
        guard result.status == 0 else { throw TestSetupError("python3 zoneinfo failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
