// A third-party plugin: unit conversion, written against SkillSDK only.
//
// Provides:
//   units.convert  a length, mass or temperature from one unit to another
import SkillSDK

@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    SkillPlugin(
        id: "units", name: "Units", version: "0.3.0",
        description: "Converts lengths, masses and temperatures between metric and imperial units.",
        skills: [Convert()]
    ).export(major, minor, host)
}

/// `units.convert`.
struct Convert: Skill {
    struct Arguments: Decodable {
        var value: Double
        var from: String
        var to: String
    }

    struct Output: Encodable {
        var value: Double
        var unit: String
    }

    /// Each unit's size in its dimension's base unit (metre, kilogram); temperatures are special.
    static let factors: [String: (dimension: String, factor: Double)] = [
        "mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1), "km": ("length", 1000),
        "in": ("length", 0.0254), "ft": ("length", 0.3048), "yd": ("length", 0.9144), "mi": ("length", 1609.344),
        "g": ("mass", 0.001), "kg": ("mass", 1), "oz": ("mass", 0.028349523125), "lb": ("mass", 0.45359237),
        "C": ("temperature", 1), "F": ("temperature", 1), "K": ("temperature", 1),
    ]
    static let units = ["mm", "cm", "m", "km", "in", "ft", "yd", "mi", "g", "kg", "oz", "lb", "C", "F", "K"]
    /// What people call each unit: the offline planner reads "10 kilometers to miles" as km → mi.
    static let unitNames: KeyValuePairs<String, [String]> = [
        "mm": ["millimetre", "millimeter"], "cm": ["centimetre", "centimeter"], "m": ["metre", "meter"],
        "km": ["kilometre", "kilometer"], "in": ["inch"], "ft": ["foot", "feet"], "yd": ["yard"],
        "mi": ["mile"], "g": ["gram", "gramme"], "kg": ["kilogram", "kilo"], "oz": ["ounce"],
        "lb": ["pound", "lbs"], "C": ["degrees Celsius", "celsius", "centigrade"],
        "F": ["degrees Fahrenheit", "fahrenheit"], "K": ["kelvin"],
    ]

    let name = "convert"
    let title = "Convert units"
    let description = """
        Converts a length, mass or temperature between metric and imperial units (km to mi, lb to kg, \
        F to C). Not for currencies, and not for time zones (use clock.convert).
        """
    let parameters = ParameterSchema.object(
        [
            "value": .number("The amount to convert"),
            "from": .choice("The unit of value", unitNames),
            "to": .choice("The unit to convert to", unitNames),
        ], required: ["value", "from", "to"])
    let examples = [
        "convert {value} {from} to {to}", "how many {to} is {value} {from}", "{value} {from} in {to}",
        "how many {to} are in {value} {from}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        guard let from = Convert.factors[arguments.from] else {
            throw SkillError.invalidArguments(field: "/from", message: "unknown unit \"\(arguments.from)\"")
        }
        guard let to = Convert.factors[arguments.to] else {
            throw SkillError.invalidArguments(field: "/to", message: "unknown unit \"\(arguments.to)\"")
        }
        guard from.dimension == to.dimension else {
            throw SkillError.invalidArguments(
                field: "/to",
                message: "cannot convert \(from.dimension) (\(arguments.from)) to \(to.dimension) (\(arguments.to))",
                remedy: "pick a target unit of the same kind")
        }
        let result: Double
        if from.dimension == "temperature" {
            result = Convert.temperature(Convert.kelvin(arguments.value, arguments.from), to: arguments.to)
        } else {
            result = arguments.value * from.factor / to.factor
        }
        return Output(value: (result * 1_000_000).rounded() / 1_000_000, unit: arguments.to)
    }

    static func kelvin(_ value: Double, _ unit: String) -> Double {
        switch unit {
        case "C": return value + 273.15
        case "F": return (value - 32) * 5 / 9 + 273.15
        default: return value
        }
    }

    static func temperature(_ kelvin: Double, to unit: String) -> Double {
        switch unit {
        case "C": return kelvin - 273.15
        case "F": return (kelvin - 273.15) * 9 / 5 + 32
        default: return kelvin
        }
    }
}
