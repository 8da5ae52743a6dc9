// The clock plugin (ZoneInfo, no Foundation) against the Foundation version it replaced (issue #9), on random
// zones, instants, dates, sums and spans; run by scripts/clock-parity.sh. Prints each kind of mismatch (up to
// six examples) and the counts. Arguments: SEED [full] ("full": years 0-9999 and amounts up to a million).
import Foundation
let FULL = CommandLine.arguments.count > 2
let LOW = FULL ? -2_208_988_800 : 31_536_000

struct RNG { var s: UInt64; mutating func next() -> UInt64 { s &+= 0x9E3779B97F4A7C15; var z = s; z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31) }
  mutating func int(_ r: ClosedRange<Int>) -> Int { r.lowerBound + Int(next() % UInt64(r.count)) } }
var rng = RNG(s: UInt64(CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 1))
var mismatches: [String: Int] = [:]
var shown: [String: Int] = [:]
func report(_ kind: String, _ text: @autoclosure () -> String) {
    mismatches[kind, default: 0] += 1
    if shown[kind, default: 0] < (kind == "zone-name" ? 100 : 6) { shown[kind, default: 0] += 1; print("MISMATCH \(kind): \(text())") }
}
func describeOld(_ r: OldReading) -> String { "\(r.iso8601) \(r.weekday) \(r.timezone) \(r.utcOffset) \(r.isDaylightSavingTime) \(r.unixSeconds)" }
func describeNew(_ r: ClockReading) -> String { "\(r.iso8601) \(r.weekday) \(r.timezone) \(r.utcOffset) \(r.isDaylightSavingTime) \(r.unixSeconds)" }

let allNames = ZoneInfoDirectory.system.zoneNames()
var names = ["asia/tokyo", "Paris", "new york", "PST", "utc", "Europe/London", "GMT", "z", "Z", "EST", "CET", "IST", "MST", "Tokyo", "tokyo", "buenos aires", "Buenos_Aires", "kolkata", "calcutta", "Kiev", "kyiv", "US/Pacific", "us/pacific", "Etc/GMT+5", "GMT+5", "UTC-05:30", "GMT+05:60", "GMT+0599", "Mars/Olympus", "Atlantis", "posixrules", "localtime", "posix/Europe/Paris", "right/UTC", "Factory", "EST5EDT", "Universal", "Zulu", "GMT0", "Etc/UTC", "UCT", " Asia/Tokyo ", "Europe/Paris ", "london", "LONDON", "Hawaii", "honolulu", "GMT-0", "UTC+0", "../etc/passwd", "Europe/../Europe/Paris", "WIB", "AEST", "ACDT", "SystemV/AST4", "Pacific/Truk", "Asia/Rangoon", "America/Argentina/Buenos_Aires", "America/Indiana/Indianapolis", "indianapolis", "Sao Paulo", "st johns", "port of spain", "Port-au-Prince", "port-au-prince", "dumont durville", "Asia/Ho_Chi_Minh", "saigon", "America/Godthab", "nuuk", "Europe/Kiev", "chongqing"]
for _ in 0..<150 { names.append(allNames[rng.int(0...allNames.count - 1)]) }
for _ in 0..<80 { let n = allNames[rng.int(0...allNames.count - 1)]; names.append(String(n.split(separator: "/").last!).replacingOccurrences(of: "_", with: " ").lowercased()) }
var zones: [(OldClockTime, ClockTime)] = []
for name in names {
    let old = try? OldClockTime(zoneNamed: name, field: "/z")
    let new = try? ClockTime(zoneNamed: name, field: "/z")
    if old?.zoneName != new?.zoneName { report("zone-name", "[\(name)] old \(old?.zoneName ?? "nil") new \(new?.zoneName ?? "nil")") }
    if let old, let new, old.zoneName == new.zoneName { zones.append((old, new)) }
}
print("zones compared:", names.count, "usable:", zones.count)

// describe at random instants
for _ in 0..<20000 {
    let (old, new) = zones[rng.int(0...zones.count - 1)]
    let range = rng.int(0...9)
    let t: Double = range < (FULL ? 7 : 10) ? Double(rng.int(LOW...4_102_444_800)) + Double(rng.int(0...999)) / 1000 : Double(rng.int(-62_135_596_800...253_402_300_799))
    let a = old.describe(Date(timeIntervalSince1970: t)), b = new.describe(t)
    if describeOld(a) != describeNew(b) { report("describe", "\(new.zoneName) t=\(t) old \(describeOld(a)) new \(describeNew(b))") }
}
func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
func randomText() -> String {
    let year = FULL ? (rng.int(0...9) < 8 ? rng.int(1850...2150) : rng.int(0...9999)) : rng.int(1971...2150)
    var s = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year) + "-" + two(rng.int(0...9) == 0 ? rng.int(0...13) : rng.int(1...12)) + "-" + two(rng.int(0...9) == 0 ? rng.int(0...32) : rng.int(1...31))
    if rng.int(0...3) > 0 {
        // bias hours toward 0-3 (transitions)
        let h = rng.int(0...9) < 5 ? rng.int(0...3) : rng.int(0...24)
        s += (rng.int(0...5) == 0 ? " " : "T") + two(h) + ":" + two(rng.int(0...9) < 5 ? 30 : rng.int(0...60))
        if rng.int(0...1) == 0 { s += ":" + two(rng.int(0...61)); if rng.int(0...3) == 0 { s += "." + String(rng.int(0...999999)) } }
        switch rng.int(0...5) { case 0: s += "Z"; case 1: s += (rng.int(0...1) == 0 ? "+" : "-") + two(rng.int(0...19)) + ":" + two(rng.int(0...59)); default: break }
    }
    return s
}
var parsed: [(Date, Double, OldClockTime, ClockTime)] = []
for _ in 0..<20000 {
    let (old, new) = zones[rng.int(0...zones.count - 1)]
    let text = randomText()
    var oldResult: String, newResult: String
    var od: Date? = nil, nd: Double? = nil
    do { od = try old.date(from: text, field: "/f"); oldResult = old.iso8601(od!) + " " + String(format: "%.3f", od!.timeIntervalSince1970) } catch { oldResult = "\(error)" }
    do { nd = try new.date(from: text, field: "/f"); newResult = new.iso8601(nd!) + " " + String(format: "%.3f", nd!) } catch { newResult = "\(error)" }
    if oldResult != newResult { report("parse", "\(new.zoneName) [\(text)] old \(oldResult) new \(newResult)") }
    if let od, let nd, oldResult == newResult { parsed.append((od, nd, old, new)) }
}
print("parsed compared, usable:", parsed.count)
let units = ["seconds", "minutes", "hours", "days", "weeks", "months", "years"]
for _ in 0..<20000 {
    let (od, nd, old, new) = parsed[rng.int(0...parsed.count - 1)]
    let unit = units[rng.int(0...units.count - 1)]
    let amount = FULL ? (rng.int(0...9) < 8 ? rng.int(-40...40) : rng.int(-1_000_000...1_000_000)) : rng.int(-400...400)
    let a = old.adding(amount, unit, to: od), b = new.adding(amount, unit, to: nd)
    let sa = a.map { old.iso8601($0) } ?? "nil", sb = b.map { new.iso8601($0) } ?? "nil"
    if sa != sb { report("add-\(unit)", "\(new.zoneName) \(new.iso8601(nd)) + \(amount) \(unit): old \(sa) new \(sb)") }
}
for _ in 0..<20000 {
    let (od1, nd1, old, new) = parsed[rng.int(0...parsed.count - 1)]
    var (od2, nd2, _, _) = parsed[rng.int(0...parsed.count - 1)]
    if rng.int(0...1) == 0 { let secs = Double(rng.int(-200_000...200_000)); od2 = od1.addingTimeInterval(secs); nd2 = nd1 + secs }
    let p = old.difference(from: min(od1, od2), to: max(od1, od2))
    let q = new.difference(from: min(nd1, nd2), to: max(nd1, nd2))
    if (p.day!, p.hour!, p.minute!, p.second!) != (q.day, q.hour, q.minute, q.second) {
        report("difference", "\(new.zoneName) \(new.iso8601(min(nd1,nd2))) → \(new.iso8601(max(nd1,nd2))): old \(p.day!)d \(p.hour!)h \(p.minute!)m \(p.second!)s new \(q.day)d \(q.hour)h \(q.minute)m \(q.second)s")
    }
}
print("mismatches:", mismatches.sorted(by: { $0.key < $1.key }))
