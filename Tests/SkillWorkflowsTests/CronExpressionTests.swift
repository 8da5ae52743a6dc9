import SkillWorkflows
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Cron schedules: the fields, their faults in one line each, and which minutes are due (in UTC here).
@Suite(.serialized) struct CronExpressionTests {
    init() {
        setenv("TZ", "UTC", 1)
        tzset()
    }

    /// 2026-12-07 is a Monday; seconds at 00:00 UTC.
    static let monday: Int64 = 1_796_601_600

    @Test func fieldsMatchTheirMinutes() throws {
        let weekdays = try CronExpression("0 9 * * 1-5")
        #expect(weekdays.matches(unixSeconds: Self.monday + 9 * 3600))
        #expect(!weekdays.matches(unixSeconds: Self.monday + 9 * 3600 + 60))
        #expect(!weekdays.matches(unixSeconds: Self.monday - 86_400 + 9 * 3600))  // Sunday
        let steps = try CronExpression("*/15 8-10 * dec mon,sun")
        #expect(steps.matches(unixSeconds: Self.monday + 8 * 3600 + 45 * 60))
        #expect(!steps.matches(unixSeconds: Self.monday + 8 * 3600 + 50 * 60))
        #expect(try CronExpression("@daily").matches(unixSeconds: Self.monday))
        // Both day fields restricted: either one is enough (as cron does).
        #expect(try CronExpression("0 0 13 * 1").matches(unixSeconds: Self.monday))
    }

    @Test func theLatestDueMinuteLooksBackNoFurtherThanAsked() throws {
        let cron = try CronExpression("0 9 * * *")
        let at = Self.monday + 9 * 3600 + 30 * 60 + 17
        #expect(cron.latestDue(atOrBefore: at, after: Self.monday) == Self.monday + 9 * 3600)
        #expect(cron.latestDue(atOrBefore: at, after: Self.monday + 9 * 3600) == nil)
    }

    @Test func badSchedulesSayWhatAndHow() {
        func reason(_ text: String) -> String? {
            do throws(WorkflowSyntaxError) { _ = try CronExpression(text); return nil } catch { return error.reason }
        }
        #expect(reason("0 9 * *") == "'0 9 * *' has 4 fields; a cron schedule has 5: minute hour day-of-month month day-of-week (e.g. '0 9 * * 1-5')")
        #expect(reason("60 9 * * *") == "the minute field '60': '60' is not 0–59; fix the schedule")
        #expect(reason("0 9 * foo *") == "the month field 'foo': 'foo' is not 1–12 or a name (jan…); fix the schedule")
        #expect(reason("0 9-5 * * *") == "the hour field '9-5': the range 9-5 runs backwards; write the smaller value first")
        #expect(reason("*/0 * * * *") == "the minute field '*/0': the step after '/' must be a whole number over 0; fix the schedule")
    }

    /// A `TZ=ZONE` prefix reads the fields in that zone, summer and winter; the system's zone (UTC here) otherwise.
    @Test func aZonePrefixReadsTheFieldsInThatZone() throws {
        let paris = try CronExpression("TZ=Europe/Paris 0 9 * * *")
        #expect(paris.zone == "Europe/Paris")
        // December: Paris is UTC+1, so 9:00 there is 8:00 UTC.
        #expect(paris.matches(unixSeconds: Self.monday + 8 * 3600))
        #expect(!paris.matches(unixSeconds: Self.monday + 9 * 3600))
        // July (2026-07-06, a Monday): UTC+2, so 7:00 UTC.
        let july: Int64 = 1_783_296_000
        #expect(paris.matches(unixSeconds: july + 7 * 3600))
        // Tokyo (UTC+9, no summer time): 9:00 Monday there is 0:00 UTC Monday, and the weekday is Tokyo's.
        let tokyo = try CronExpression("CRON_TZ=Asia/Tokyo 0 9 * * mon")
        #expect(tokyo.matches(unixSeconds: Self.monday))
        #expect(!tokyo.matches(unixSeconds: Self.monday + 86_400))
        #expect(try CronExpression("TZ=Asia/Tokyo @daily").matches(unixSeconds: Self.monday - 9 * 3600))
        #expect(try CronExpression("0 9 * * *").zone == nil)
        func reason(_ text: String) -> String? {
            do throws(WorkflowSyntaxError) { _ = try CronExpression(text); return nil } catch { return error.reason }
        }
        #expect(reason("TZ=Mars/Olympus 0 9 * * *") == "'TZ=Mars/Olympus 0 9 * * *': the zone 'Mars/Olympus' is not in the time-zone database (/usr/share/zoneinfo); use an IANA name such as Europe/Paris")
        #expect(reason("TZ=../../etc/passwd 0 9 * * *")?.contains("is not in the time-zone database") == true)
        #expect(reason("TZ= 0 9 * * *") == "'TZ= 0 9 * * *': TZ= names no zone; write e.g. 'TZ=Europe/Paris 0 9 * * *'")
        #expect(reason("TZ=UTC 0 9 * *") == "'TZ=UTC 0 9 * *' has 4 fields; a cron schedule has 5: minute hour day-of-month month day-of-week (e.g. '0 9 * * 1-5')")
    }
}
