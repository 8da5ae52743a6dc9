import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// The offline planner reads what people type for enum values: the names a schema gives each value
/// (`anyOf` branches with `const`, `title` and `description`, as SkillSDK's `.choice` writes them), in the
/// singular or the plural. The schema is the third-party fixture's `units.convert`.
@Suite struct OfflinePlannerChoiceNameTests {
    static let unitNames: [(String, [String])] = [
        ("mm", ["millimetre", "millimeter"]), ("cm", ["centimetre", "centimeter"]), ("m", ["metre", "meter"]),
        ("km", ["kilometre", "kilometer"]), ("in", ["inch"]), ("ft", ["foot", "feet"]), ("yd", ["yard"]),
        ("mi", ["mile"]), ("g", ["gram", "gramme"]), ("kg", ["kilogram", "kilo"]), ("oz", ["ounce"]),
        ("lb", ["pound", "lbs"]), ("C", ["degrees Celsius", "celsius", "centigrade"]),
        ("F", ["degrees Fahrenheit", "fahrenheit"]), ("K", ["kelvin"]),
    ]

    /// The schema `.choice(description, unitNames)` produces.
    static func choice(_ description: String) -> JSONValue {
        [
            "type": "string", "description": .string(description),
            "enum": .array(unitNames.map { .string($0.0) }),
            "anyOf": .array(unitNames.map { value, names in
                ["const": .string(value), "title": .string(names[0]), "description": .string(names.joined(separator: ", "))]
            }),
        ]
    }

    static let units = ToolSpec(
        name: "units_convert",
        tool: SkillTool(
            id: "units.convert", title: "Convert units",
            description: "Converts a length, mass or temperature between metric and imperial units (km to mi, lb to kg, F to C). Not for currencies, and not for time zones (use clock.convert).",
            parameters: [
                "type": "object",
                "properties": [
                    "value": ["type": "number", "description": "The amount to convert"],
                    "from": choice("The unit of value"), "to": choice("The unit to convert to"),
                ],
                "required": ["value", "from", "to"], "additionalProperties": false,
            ],
            examples: [
                "convert {value} {from} to {to}", "how many {to} is {value} {from}", "{value} {from} in {to}",
                "how many {to} are in {value} {from}",
            ]))

    static func plan(_ text: String) -> OfflinePlan {
        BundledSkills.plan(text, tools: BundledSkills.tools + [units])
    }

    @Test(arguments: [
        ("convert 10 kilometers to miles", 10.0, "km", "mi"),
        ("convert 10 km to mi", 10.0, "km", "mi"),
        ("how many pounds is 3 kilograms", 3.0, "kg", "lb"),
        ("2.5 miles in kilometres", 2.5, "mi", "km"),
        ("how many inches are in 2 feet", 2.0, "ft", "in"),
        ("convert 212 fahrenheit to celsius", 212.0, "F", "C"),
    ])
    func namesAndPluralsReachTheEnumValues(text: String, value: Double, from: String, to: String) throws {
        let plan = Self.plan(text)
        #expect(plan.unmapped == [], "\(text)")
        let step = try #require(plan.steps.first, "\(text)")
        #expect(step.toolName == "units_convert")
        #expect(step.arguments["value"]?.doubleValue == value)
        #expect(step.arguments["from"] == .string(from), "\(text)")
        #expect(step.arguments["to"] == .string(to), "\(text)")
    }

    @Test func anUnknownUnitIsNotGuessed() {
        let plan = Self.plan("convert 10 parsecs to miles")
        #expect(plan.steps.isEmpty)
    }

    @Test func choiceNamesReadEnumAndBranches() throws {
        let names = try #require(ChoiceNames(Self.choice("unit")))
        #expect(names.value(named: "Kilometres") == "km")
        #expect(names.value(named: "feet") == "ft")
        #expect(names.value(named: "inches") == "in")
        #expect(names.value(named: "MI") == "mi")
        #expect(names.value(named: "furlongs") == nil)
        // A plain enum still works as before: values, and "day" for "days".
        let plain = try #require(ChoiceNames(["type": "string", "enum": ["days", "weeks"]]))
        #expect(plain.value(named: "day") == "days")
        #expect(ChoiceNames(["type": "string"]) == nil)
    }
}
