@testable import SkillStore
import SkillJSON
import Testing

/// The recording fast paths (issue #15): the redactor's allocation-free name check and its "nothing to
/// redact" shortcut, and finish records encoded into one reused buffer, change no result.
@Suite struct RedactionFastPathTests {
    @Test func secretNamesAreFoundWhateverTheirCaseAndSeparators() {
        for name in ["Authorization", "api_key", "X-Api-Key", "PASSWORD", "client_secret", "Proxy-Authorization", "set-cookie", "__token__"] {
            #expect(SecretRedactor.isSecretName(name), "\(name)")
        }
        for name in ["", "_-_", "author", "tokens", "apikeys", "proxyauthorizationx", "a_very_long_field_name_that_is_no_secret", "pässword", "query"] {
            #expect(!SecretRedactor.isSecretName(name), "\(name)")
        }
    }

    @Test func aValueWithNothingToRedactComesBackUnchanged() {
        let redactor = SecretRedactor(secrets: ["sk-0123456789abcdef"])
        let value: JSONValue = ["query": "weather in Paris", "days": 3, "tags": ["a", "b"], "nested": ["deep": [1, 2, nil]]]
        #expect(!redactor.needsRedaction(value, schema: nil))
        #expect(redactor.redact(value) == value)
        let schema: JSONValue = ["type": "object", "properties": ["query": ["type": "string"]]]
        #expect(redactor.redact(value, schema: schema) == value)
    }

    @Test func eachKindOfSecretIsStillRedactedDeepInAValue() throws {
        let secret = "sk-0123456789abcdef"
        let redactor = SecretRedactor(secrets: [secret])
        let placeholder = JSONValue.string(SecretRedactor.placeholder)
        // A secret-named field two levels down.
        let named = redactor.redact(["outer": ["items": [["Api-Key": "x", "keep": 1]]]])
        #expect(named == ["outer": ["items": [["Api-Key": placeholder, "keep": 1]]]])
        // A known secret inside a string in an array.
        let scrubbed = redactor.redact(["log": ["ok", .string("used \(secret) here")]])
        #expect(scrubbed == ["log": ["ok", .string("used \(SecretRedactor.placeholder) here")]])
        // A bearer credential.
        let bearer = redactor.redact(["header": "bearer abcdefgh12345678"])
        #expect(bearer == ["header": .string("Bearer \(SecretRedactor.placeholder)")])
        // A field the schema marks writeOnly, found through additionalProperties.
        let schema: JSONValue = ["type": "object", "additionalProperties": ["type": "string", "writeOnly": true]]
        #expect(redactor.needsRedaction(["pin": "1234"], schema: schema))
        #expect(redactor.redact(["pin": "1234"], schema: schema) == ["pin": placeholder])
        // A secret after a NUL character (JSON's \u0000) is found all the same.
        #expect(redactor.redact(["text": .string("a\u{0}b \(secret)")]) == ["text": .string("a\u{0}b \(SecretRedactor.placeholder)")])
        #expect(redactor.redact(["text": "a\u{0} Bearer abcdefgh12345678"]) == ["text": .string("a\u{0} Bearer \(SecretRedactor.placeholder)")])
        // A "bearer" word without a credential is left as it was.
        #expect(redactor.redact(["text": "the bearer of news"]) == ["text": "the bearer of news"])
    }

    @Test func recordsEncodedIntoOneReusedBufferDecodeAsWritten() {
        let outcome = CallOutcome(status: .succeeded, resultJSON: "{\"ok\":true}", summary: "ok", durationMilliseconds: 1.5)
        let first = FinishRecord(rowID: 3, outcome: outcome, context: ["b": "2", "a": "1"], finishedMilliseconds: 9)
        var second = FinishRecord(rowID: 0, outcome: outcome, context: [:], finishedMilliseconds: 10)
        second.start = CallStart(callID: "call_1", sessionID: "s", messagePosition: 4, skillID: "x.y", argumentsJSON: "{}")
        var buffer: [UInt8] = []
        FinishRecordCoding.encode(first, into: &buffer)
        #expect(buffer == FinishRecordCoding.encode(first))
        buffer.removeAll(keepingCapacity: true)
        FinishRecordCoding.encode(second, into: &buffer)
        #expect(FinishRecordCoding.decodeAll(buffer).records == [second])
        FinishRecordCoding.encode(first, into: &buffer)
        let decoded = FinishRecordCoding.decodeAll(buffer)
        #expect(decoded.records == [second, first])
        #expect(decoded.problem == nil)
    }
}

/// The statement cache's cheap hash: equal SQL finds the same statement, different SQL never shares one,
/// short texts included.
@Suite struct StatementKeyTests {
    @Test func statementsAreFoundByTheirWholeText() {
        let texts = ["", "S", "SELECT 1", "SELECT 12", "SELECT 123456", "SELECT 1 -- a", "SELECT 2 -- a",
                     "UPDATE t SET a = ? WHERE id = ?", "UPDATE t SET b = ? WHERE id = ?"]
        var cache: [StatementKey: Int] = [:]
        for (index, text) in texts.enumerated() { cache[StatementKey(sql: text)] = index }
        #expect(cache.count == texts.count)
        for (index, text) in texts.enumerated() { #expect(cache[StatementKey(sql: String(text))] == index) }
    }
}
