import Foundation
import SkillJSON
import SkillSDK
import Testing

@Suite struct SkillContextTests {
    @Test func localContextStoresValuesAndKeepsLogLines() async throws {
        let context = SkillContext(values: ["seen": 1])
        #expect(await context.value(forKey: "seen") == 1)
        try await context.set("two", forKey: "next")
        #expect(await context.value(forKey: "next") == "two")
        context.log("hello", level: .error)
        #expect(context.loggedLines.map(\.message) == ["hello"])
        #expect(context.loggedLines.map(\.level) == [.error])
    }

    @Test func skillsRunWithoutAHost() async throws {
        let output = try await TestSkills.Greet().execute(
            .init(name: "Bo", times: nil), context: SkillContext(callID: "c9"))
        #expect(output.greeting == "Hello, Bo!")
        #expect(output.callID == "c9")
    }

    @Test func passedDeadlineCancelsAndThrowsTimedOut() {
        let context = SkillContext(deadlineUnixMilliseconds: currentUnixMilliseconds() - 1)
        #expect(context.isCancelled)
        #expect(throws: SkillError.timedOut) { try context.checkCancellation() }
        #expect(context.remainingTime.map { $0 <= .zero } == true)
    }

    @Test func noDeadlineIsNeverCancelled() throws {
        let context = SkillContext()
        #expect(!context.isCancelled)
        #expect(context.remainingTime == nil)
        try context.checkCancellation()
    }

    @Test func errorDescriptionIsOneLineWithPlaceAndRemedy() {
        let error = SkillError.invalidArguments(field: "/time", message: "10:75 is not a time", remedy: "use HH:MM")
        #expect(error.description == "10:75 is not a time (at /time); use HH:MM")
        #expect(!error.description.contains("\n"))
    }
}
