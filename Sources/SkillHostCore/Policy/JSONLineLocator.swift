import Foundation
import SkillJSON

/// Finds the line and column where the value at a JSON pointer starts in a document's text, so a message
/// about a value (not a syntax error, which the parser places itself) can name its line. The text must be
/// JSON that parsed; anything else gives nil.
struct JSONLineLocator {
    let bytes: [UInt8]

    /// The 1-based line and column of the value at `pointer` ("" is the whole document); nil when the
    /// pointer leads nowhere.
    func position(of pointer: String) -> (line: Int, column: Int)? {
        var tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }[...]
        var index = skipSpace(0)
        while let token = tokens.first {
            tokens = tokens.dropFirst()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard let found = member(token, inObjectAt: index) else { return nil }
                index = found
            case UInt8(ascii: "["):
                guard let number = Int(token), let found = element(number, inArrayAt: index) else { return nil }
                index = found
            default:
                return nil
            }
        }
        guard index <= bytes.count else { return nil }
        var line = 1
        var lineStart = 0
        for offset in 0..<index where bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        return (line, index - lineStart + 1)
    }

    private func skipSpace(_ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    /// The start of the member `name`'s value in the object at `start`.
    private func member(_ name: String, inObjectAt start: Int) -> Int? {
        var index = skipSpace(start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let keyEnd = stringEnd(index)
            let key = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            index = skipSpace(keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index = skipSpace(index + 1)
            if unescaped(key) == name { return index }
            index = skipSpace(valueEnd(index))
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
        }
        return nil
    }

    /// The start of element `number` of the array at `start`.
    private func element(_ number: Int, inArrayAt start: Int) -> Int? {
        var index = skipSpace(start + 1)
        var count = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            if count == number { return index }
            index = skipSpace(valueEnd(index))
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
            count += 1
        }
        return nil
    }

    /// The index just past the value starting at `start`.
    private func valueEnd(_ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""): return stringEnd(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = stringEnd(index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            }
            return index
        }
    }

    /// The index just past the string starting at `start` (its quote).
    private func stringEnd(_ start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return index
    }

    /// A key's text with its escapes read (through the JSON parser, which knows them all).
    private func unescaped(_ key: String) -> String {
        guard key.contains("\\") else { return key }
        return (try? JSONValue(parsing: "\"" + key + "\""))?.stringValue ?? key
    }
}
