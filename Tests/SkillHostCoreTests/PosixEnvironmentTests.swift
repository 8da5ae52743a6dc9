import Glibc
import SkillPosix
import Testing

/// `Posix.environment()` reads `environ` as bytes: what `getenv` gives, for every kind of entry.
@Suite("Posix.environment")
struct PosixEnvironmentTests {
    @Test("entries split at their first '=': an '=' in the value, non-ASCII text, an empty value; the first of a repeated name wins; no '=', no variable")
    func splitsEntries() {
        let texts = ["EQUALS=a=b=c", "TEXT=Grüße, 世界", "EMPTY=", "TWICE=first", "TWICE=second", "NOEQUALS", "=unnamed"]
        var pointers: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        let read = pointers.withUnsafeMutableBufferPointer { Posix.environment(of: $0.baseAddress!) }
        #expect(read == ["EQUALS": "a=b=c", "TEXT": "Grüße, 世界", "EMPTY": "", "TWICE": "first", "": "unnamed"])
    }

    @Test("a read reuses the last dictionary only for the same bytes: one value changed in place is read anew")
    func reusesOnlyTheSameBytes() {
        func read(_ texts: [String]) -> [String: String] {
            var pointers: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) }
            pointers.append(nil)
            defer { for pointer in pointers { free(pointer) } }
            return pointers.withUnsafeMutableBufferPointer { Posix.environment(of: $0.baseAddress!) }
        }
        #expect(read(["A=1", "B=2"]) == ["A": "1", "B": "2"])
        #expect(read(["A=1", "B=2"]) == ["A": "1", "B": "2"])
        #expect(read(["A=1", "B=3"]) == ["A": "1", "B": "3"])
        #expect(read(["A=1"]) == ["A": "1"])
        #expect(read([]) == [:])
        #expect(read(["A=1", "B=2"]) == ["A": "1", "B": "2"])
    }

    @Test("the process's own: every variable as getenv reads it")
    func readsWhatGetenvReads() {
        let read = Posix.environment()
        #expect(!read.isEmpty)
        for (name, value) in read where !name.isEmpty {
            #expect(getenv(name).map { String(cString: $0) } == value, "\(name)")
        }
    }
}
