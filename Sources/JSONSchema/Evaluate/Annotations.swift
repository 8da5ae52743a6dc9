/// What a schema evaluated in an instance, as `unevaluatedProperties`/`unevaluatedItems` need it. Only
/// collected below a schema that has one of them; failed subschemas contribute nothing.
struct Annotations {
    /// All properties were evaluated (`additionalProperties`, `unevaluatedProperties`).
    var allProperties = false
    /// Properties evaluated by name or pattern.
    var properties: Set<String> = []
    /// All items were evaluated (`items`, `unevaluatedItems`).
    var allItems = false
    /// Items before this index were evaluated (`prefixItems`).
    var prefixItems = 0
    /// Items `contains` matched.
    var items: Set<Int> = []

    /// Adds what `other` evaluated.
    mutating func merge(_ other: Annotations) {
        if other.allProperties { allProperties = true }
        if !allProperties && !other.properties.isEmpty { properties.formUnion(other.properties) }
        if other.allItems { allItems = true }
        if other.prefixItems > prefixItems { prefixItems = other.prefixItems }
        if !allItems && !other.items.isEmpty { items.formUnion(other.items) }
    }

    /// Whether the property `name` was evaluated.
    func evaluated(property name: String) -> Bool { allProperties || properties.contains(name) }

    /// Whether the item at `index` was evaluated.
    func evaluated(item index: Int) -> Bool { allItems || index < prefixItems || items.contains(index) }
}
