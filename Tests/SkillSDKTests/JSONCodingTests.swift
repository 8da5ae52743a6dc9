import SkillJSON
import SkillSDK
import Testing

@Suite struct JSONCodingTests {
    struct Event: Codable, Equatable {
        enum Kind: String, Codable { case meeting, workout }
        struct Place: Codable, Equatable {
            var name: String
            var floor: Int8?
        }
        var title: String
        var kind: Kind
        var minutes: Int
        var ratio: Double
        var tags: [String]
        var place: Place?
        var attendees: [Place]
        var reminders: [String: UInt16]
        var done: Bool
    }

    let sample = Event(
        title: "Run", kind: .workout, minutes: 45, ratio: 0.5, tags: ["a", "b"], place: .init(name: "Park", floor: nil),
        attendees: [.init(name: "Ada", floor: 3)], reminders: ["early": 10], done: false)

    @Test func roundTripsThroughJSONValue() throws {
        let json = try JSONValueEncoder().encode(sample)
        #expect(try JSONValueDecoder().decode(Event.self, from: json) == sample)
    }

    @Test func encodesInDeclarationOrderAndLeavesOutNilOptionals() throws {
        let json = try JSONValueEncoder().encode(sample)
        #expect(
            json.serialized()
                == #"{"title":"Run","kind":"workout","minutes":45,"ratio":0.5,"tags":["a","b"],"place":{"name":"Park"},"attendees":[{"name":"Ada","floor":3}],"reminders":{"early":10},"done":false}"#
        )
    }

    /// Encodes `a` three times (a string, then an object, then a number) between two other members.
    struct Rewrites: Encodable {
        enum Key: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("first", forKey: .a)
            try container.encode(1, forKey: .b)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            try nested.encode(true, forKey: .c)
            try container.encode(["x"], forKey: .c)
            try container.encode(3, forKey: .a)
        }
    }

    @Test func aMemberEncodedAgainKeepsItsFirstPlaceAndItsLastValue() throws {
        #expect(try JSONValueEncoder().encode(Rewrites()).serialized() == #"{"a":3,"b":1,"c":["x"]}"#)
    }

    @Test func integralDoublesDecodeAsIntegersButFractionsDoNot() throws {
        struct Count: Decodable { var n: Int }
        #expect(try JSONValueDecoder().decode(Count.self, from: ["n": 3.0]).n == 3)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Count.self, from: ["n": 3.5]) }
    }

    @Test func outOfRangeIntegerIsInvalidAtItsPointer() {
        struct Small: Decodable {
            var items: [Item]
            struct Item: Decodable { var level: UInt8 }
        }
        #expect(
            throws: SkillError.invalidArguments(
                field: "/items/1/level", message: "/items/1/level: 300 does not fit in UInt8")
        ) {
            try JSONValueDecoder().decodeArguments(Small.self, from: ["items": [["level": 1], ["level": 300]]])
        }
    }

    @Test func nullForARequiredMemberNamesTheMember() {
        struct Need: Decodable { var title: String }
        #expect(throws: SkillError.invalidArguments(field: "/title", message: "/title: expected a string, found null"))
        {
            try JSONValueDecoder().decodeArguments(Need.self, from: ["title": nil])
        }
    }

    @Test func keysWithSlashesAreEscapedInThePointer() {
        struct Odd: Decodable {
            var value: Int
            enum CodingKeys: String, CodingKey { case value = "a/b~c" }
        }
        #expect(
            throws: SkillError.invalidArguments(
                field: "/a~1b~0c", message: "/a~1b~0c: expected an integer, found boolean")
        ) {
            try JSONValueDecoder().decodeArguments(Odd.self, from: ["a/b~c": true])
        }
    }

    @Test func wrongRootTypeIsInvalidAtTheRoot() {
        struct Any1: Decodable { var x: Int? }
        #expect(
            throws: SkillError.invalidArguments(field: "", message: "the arguments: expected an object, found array")
        ) {
            try JSONValueDecoder().decodeArguments(Any1.self, from: [1, 2])
        }
    }

    @Test func nonFiniteNumbersDoNotEncode() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["x": Double.infinity]) }
    }

    @Test func hugeUnsignedDoesNotEncode() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    }
}
