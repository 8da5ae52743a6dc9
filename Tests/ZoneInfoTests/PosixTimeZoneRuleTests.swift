import Testing
import ZoneInfo

/// POSIX TZ strings (TZif footers): the forms real files use, evaluated at known instants, and the
/// strings that are refused.
@Suite struct PosixTimeZoneRuleTests {
    @Test func centralEuropeanTime() throws {
        let rule = try PosixTimeZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        // 2026-03-29T01:00:00Z clocks go forward; 2026-10-25T01:00:00Z they go back.
        #expect(rule.localTimeType(at: 1_774_746_000 - 1).abbreviation == "CET")
        #expect(rule.localTimeType(at: 1_774_746_000).abbreviation == "CEST")
        #expect(rule.localTimeType(at: 1_792_890_000 - 1).utcOffset == 7200)
        #expect(rule.localTimeType(at: 1_792_890_000).utcOffset == 3600)
    }

    @Test func southernHemisphereAndQuotedNames() throws {
        // Sydney: DST from the first Sunday of October to the first Sunday of April.
        let sydney = try PosixTimeZoneRule(parsing: "AEST-10AEDT,M10.1.0,M4.1.0/3")
        #expect(sydney.localTimeType(at: 1_767_225_600).abbreviation == "AEDT")  // 2026-01-01
        #expect(sydney.localTimeType(at: 1_782_864_000).abbreviation == "AEST")  // 2026-07-01
        let tehran = try PosixTimeZoneRule(parsing: "<+0330>-3:30")
        #expect(tehran.standard == TZifFile.LocalTimeType(utcOffset: 12_600, isDaylightSaving: false, abbreviation: "+0330"))
        #expect(tehran.daylight == nil)
    }

    @Test func versionThreeTimesAndNegativeDaylightSaving() throws {
        // Nuuk (version 3): changes at -1:00 and 0:00 local time.
        let nuuk = try PosixTimeZoneRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.daylight?.startTime == -3600)
        // Dublin: "IST" is standard time, "GMT" the (negative) daylight saving time of winter.
        let dublin = try PosixTimeZoneRule(parsing: "IST-1GMT0,M10.5.0,M3.5.0/1")
        #expect(dublin.localTimeType(at: 1_782_864_000).abbreviation == "IST")
        #expect(dublin.localTimeType(at: 1_767_225_600).abbreviation == "GMT")
        let julian = try PosixTimeZoneRule(parsing: "EST5EDT,J60/2,300")
        #expect(julian.daylight?.startDay == .julian(60))
        #expect(julian.daylight?.endDay == .zeroBased(300))
    }

    @Test(arguments: [
        ("", "expected a zone name of at least three letters (at byte 0)"),
        ("CE-1", "expected a zone name of at least three letters (at byte 0)"),
        ("CET", "expected hours from 0 to 24 (at byte 3)"),
        ("CET25", "expected hours from 0 to 24 (at byte 3)"),
        ("CET-1:5", "expected two digits from 00 to 59 (at byte 6)"),
        ("<+03", "a quoted zone name must end with \">\" (at byte 4)"),
        ("CET-1CEST,M3.5.0", "expected \",\" between the start and end of daylight saving time (at byte 16)"),
        ("CET-1CEST,M3.6.0,M10.5.0", "expected Mm.w.d with a week from 1 to 5 (at byte 10)"),
        ("CET-1CEST,J366,J300", "expected a day from J1 to J365 (at byte 10)"),
        ("CET-1CEST,M3.5.0,M10.5.0/168", "expected hours from 0 to 167 (at byte 25)"),
        ("CET-1CEST,M3.5.0,M10.5.0x", "unexpected characters after the rule (at byte 24)"),
    ])
    func malformedRulesAreRefusedWithTheCharacter(text: String, message: String) {
        do {
            _ = try PosixTimeZoneRule(parsing: text)
            Issue.record("\"\(text)\" was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func instantsAtTheEndsOfTheRangeDoNotTrap() throws {
        let rule = try PosixTimeZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        for instant in [Int64.max, Int64.max - 86_400, Int64.min, Int64.min + 1] {
            _ = rule.localTimeType(at: instant)
        }
        let rules = ZoneRules(try TZifFile(parsing: TZifFileTests.file(transitions: [Int64.min + 1, Int64.max - 1])))
        for instant in [Int64.max, Int64.min, 0] {
            _ = rules.localTimeType(at: instant)
            _ = rules.resolve(localSeconds: instant)
            _ = rules.isDaylightSavingWithPositiveSavings(at: instant)
        }
    }

    @Test func civilDatesRoundTripAndKnowTheirWeekday() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSince1970 == 11_017)
        #expect(CivilDate(daysSince1970: -719_528) == CivilDate(year: 0, month: 1, day: 1))
        #expect(CivilDate(year: 2026, month: 11, day: 30).weekday == 1)  // a Monday
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<2000 {
            let days = Int64.random(in: -400_000_000...400_000_000, using: &generator)
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
            #expect((1...CivilDate.daysInMonth(year: date.year, month: date.month)).contains(date.day))
        }
    }
}
