import CSkillABI
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

@Suite struct ClockPluginTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary.swiftProduct("ClockSkill") }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "clock")
        #expect(manifest["abi_version"] == "1.0")
        #expect(manifest["thread_safe"] == true)
        #expect(
            manifest["skills"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["clock.now", "clock.add", "clock.difference", "clock.convert"])
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
        for skill in manifest["skills"]?.arrayValue ?? [] {
            #expect((skill["examples"]?.arrayValue?.count ?? 0) >= 4, "\(skill["id"]!) needs several examples")
            #expect(
                skill["description"]?.stringValue?.contains("Not ") == true, "\(skill["id"]!) says what it is not for")
        }
    }

    @Test func nowInAZoneNamedInAnyCase() async {
        let call = await plugin.call("clock.now", ["timezone": "asia/tokyo"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["timezone"] == "Asia/Tokyo")
        #expect(call.json?["utc_offset"] == "+09:00")
        #expect(call.json?["iso8601"]?.stringValue?.hasSuffix("+09:00") == true)
    }

    @Test(arguments: [
        ("Paris", "Europe/Paris"), ("new york", "America/New_York"), ("PST", "America/Los_Angeles"),
        ("utc", "UTC"), ("Europe/London", "Europe/London"),
    ])
    func zonesByCityAbbreviationOrName(name: String, identifier: String) async {
        let call = await plugin.call("clock.now", ["timezone": .string(name)])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["timezone"] == .string(identifier))
    }

    @Test func unknownZoneIsAnInvalidArgumentWithARemedy() async {
        let call = await plugin.call("clock.now", ["timezone": "Mars/Olympus"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/timezone")
        #expect(call.json?["message"] == "unknown time zone \"Mars/Olympus\"")
        #expect(call.json?["remedy"]?.stringValue?.contains("Europe/Paris") == true)
    }

    @Test func addingAMonthClampsToTheMonthEnd() async {
        let call = await plugin.call(
            "clock.add", ["start": "2028-01-31", "amount": 1, "unit": "months", "timezone": "Europe/Paris"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["iso8601"] == "2028-02-29T00:00:00+01:00")
        #expect(call.json?["weekday"] == "Tuesday")
        #expect(call.json?["start"] == "2028-01-31T00:00:00+01:00")
    }

    @Test func addingADayKeepsWallClockTimeAcrossDaylightSaving() async {
        let call = await plugin.call(
            "clock.add", ["start": "2026-03-28T12:00", "amount": 1, "unit": "days", "timezone": "Europe/Paris"])
        #expect(call.json?["iso8601"] == "2026-03-29T12:00:00+02:00")
        #expect(call.json?["is_dst"] == true)
    }

    @Test(arguments: [
        // Calendar units follow the calendar: month ends clamp, leap days, both directions.
        ("2026-03-31T09:00", -1, "months", "2026-02-28T09:00:00+01:00"),
        ("2028-02-29", 1, "years", "2029-02-28T00:00:00+01:00"),
        ("2026-01-31", 13, "months", "2027-02-28T00:00:00+01:00"),
        // Days and weeks keep the wall-clock time across both daylight-saving changes.
        ("2026-10-24T12:00", 1, "days", "2026-10-25T12:00:00+01:00"),
        ("2026-03-22T08:00", 1, "weeks", "2026-03-29T08:00:00+02:00"),
        // Hours and minutes are elapsed time: one hour after 01:30 on the spring-forward night is 03:30.
        ("2026-03-29T01:30", 1, "hours", "2026-03-29T03:30:00+02:00"),
        ("2026-10-25T02:30:00+02:00", 60, "minutes", "2026-10-25T02:30:00+01:00"),
    ])
    func calendarAwareArithmeticInParis(start: String, amount: Int, unit: String, expected: String) async {
        let call = await plugin.call(
            "clock.add",
            ["start": .string(start), "amount": .int(Int64(amount)), "unit": .string(unit), "timezone": "Europe/Paris"])
        #expect(call.status == SKILL_STATUS_OK, "\(call.text)")
        #expect(call.json?["iso8601"] == .string(expected), "\(start) + \(amount) \(unit)")
    }

    @Test func negativeAmountsGoBackInUTCByDefault() async {
        let call = await plugin.call("clock.add", ["start": "2026-01-01T00:30:00Z", "amount": -90, "unit": "minutes"])
        #expect(call.json?["iso8601"] == "2025-12-31T23:00:00Z")
        #expect(call.json?["timezone"] == "UTC")
    }

    @Test func impossibleDateIsAnInvalidArgument() async {
        let call = await plugin.call("clock.add", ["start": "2026-02-30", "amount": 1, "unit": "days"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/start")
        #expect(call.json?["message"] == "\"2026-02-30\" names a day or time that does not exist")
    }

    @Test func malformedDateIsAnInvalidArgumentWithTheFormat() async {
        let call = await plugin.call("clock.difference", ["to": "next tuesday"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/to")
        #expect(call.json?["remedy"]?.stringValue?.contains("2026-03-01T09:30") == true)
    }

    @Test func differenceBetweenDates() async {
        let call = await plugin.call("clock.difference", ["from": "2026-01-01", "to": "2026-03-01T06:00"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["total_days"] == 59.25)
        #expect(call.json?["days"] == 59)
        #expect(call.json?["hours"] == 6)
        #expect(call.json?["is_past"] == false)
    }

    @Test func differenceToAnEarlierDateIsPositiveWithIsPast() async {
        let call = await plugin.call("clock.difference", ["from": "2026-03-01T06:00", "to": "2026-01-01"])
        #expect(call.json?["days"] == 59)
        #expect(call.json?["hours"] == 6)
        #expect(call.json?["is_past"] == true)
        #expect(call.json?["total_days"] == -59.25)
    }

    @Test func differenceFromNowByDefault() async throws {
        let call = await plugin.call("clock.difference", ["to": "2000-01-01"])
        #expect(call.json?["is_past"] == true)
        #expect(try #require(call.json?["days"]?.intValue) > 9000)
    }

    @Test func differenceHonoursOffsets() async {
        let call = await plugin.call(
            "clock.difference", ["from": "2026-06-01T12:00:00+02:00", "to": "2026-06-01T12:00:00Z"])
        #expect(call.json?["total_seconds"] == 7200)
    }

    @Test func convertBetweenZones() async {
        let call = await plugin.call(
            "clock.convert", ["time": "2026-07-01T09:30", "from_timezone": "Asia/Tokyo", "to_timezone": "Europe/Paris"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["iso8601"] == "2026-07-01T02:30:00+02:00")
        #expect(call.json?["timezone"] == "Europe/Paris")
        #expect(call.json?["from"] == "2026-07-01T09:30:00+09:00")
        #expect(call.json?["from_timezone"] == "Asia/Tokyo")
    }

    @Test func unknownTargetZoneNamesItsField() async {
        let call = await plugin.call("clock.convert", ["time": "2026-07-01T09:30", "to_timezone": "Atlantis"])
        #expect(call.json?["field"] == "/to_timezone")
    }

    @Test func dublinSummerIsDaylightSavingTimeDespiteTheDatabasesNegativeSaving() async {
        // tzdata flags Dublin's winter GMT as (negative) daylight saving time; users mean summer.
        let summer = await plugin.call("clock.convert", ["time": "2026-07-01T12:00:00Z", "to_timezone": "Europe/Dublin"])
        #expect(summer.json?["utc_offset"] == "+01:00")
        #expect(summer.json?["is_dst"] == true)
        let winter = await plugin.call("clock.convert", ["time": "2026-01-15T12:00:00Z", "to_timezone": "Europe/Dublin"])
        #expect(winter.json?["utc_offset"] == "Z")
        #expect(winter.json?["is_dst"] == false)
        let paris = await plugin.call("clock.convert", ["time": "2026-07-01T12:00:00Z", "to_timezone": "Europe/Paris"])
        #expect(paris.json?["is_dst"] == true)
    }
}
