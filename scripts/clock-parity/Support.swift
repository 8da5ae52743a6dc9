// Stand-ins for the SkillSDK types the clock sources use, so they compile without the SDK.
enum SkillError: Error, Equatable {
    case invalidArguments(field: String, message: String, remedy: String)
}
struct ClockReading: Equatable { var iso8601: String; var date: String; var time: String; var weekday: String; var timezone: String; var utcOffset: String; var isDaylightSavingTime: Bool; var unixSeconds: Int64 }
struct OldReading: Equatable { var iso8601: String; var date: String; var time: String; var weekday: String; var timezone: String; var utcOffset: String; var isDaylightSavingTime: Bool; var unixSeconds: Int64 }
