import Dispatch
import Synchronization
import Testing
@testable import JSONSchema

/// A pattern's ASCII automaton is built by its first search, not by its compilation, and gives the answers
/// the other engines give, however many threads search at once while it is built.
@Suite struct RegexAutomatonTests {
    static let date = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#

    @Test("compiling builds no automaton; the first search does, and answers as backtracking does")
    func builtOnFirstSearch() throws {
        let regex = try ECMARegex(Self.date)
        #expect(!regex.builtAutomaton)
        #expect(PointerFormats.isRegex(Self.date))
        #expect(regex.search("2026-12-04") == .match)
        #expect(regex.builtAutomaton)
        for text in ["2026-12-04", "2026-1-04", "x2026-12-04", "", "2026-12-04\n"] {
            #expect(regex.search(text) == regex.search(text, backtrackingOnly: true), "\"\(text)\"")
        }
    }

    @Test("threads searching a fresh pattern at once all get the right answers")
    func concurrentFirstSearches() throws {
        let regex = try ECMARegex(Self.date)
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let text = index.isMultiple(of: 2) ? "2026-12-\(10 + index % 20)" : "2026-12-0\(index % 10)x"
            let expected: ECMARegex.SearchResult = index.isMultiple(of: 2) ? .match : .noMatch
            if regex.search(text) != expected { wrong.add(1, ordering: .relaxed) }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(regex.builtAutomaton)
    }
}
