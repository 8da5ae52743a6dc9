/// What a schema evaluated in an instance, as `unevaluatedProperties`/`unevaluatedItems` need it. Only
/// collected below a schema that has one of them; failed subschemas contribute nothing. Empty
/// annotations hold no storage, so creating them per subschema costs nothing.
struct Annotations {
    /// All properties were evaluated (`additionalProperties`, `unevaluatedProperties`).
    var allProperties = false
    /// Properties evaluated by name or pattern (nil = none).
    private var properties: Set<String>?
    /// All items were evaluated (`items`, `unevaluatedItems`).
    var allItems = false
    /// Items before this index were evaluated (`prefixItems`).
    var prefixItems = 0
    /// Items `contains` matched (nil = none).
    private var items: Set<Int>?

    /// Records that the property `name` was evaluated.
    mutating func insert(property name: String) {
        if properties == nil { properties = [name] } else { properties!.insert(name) }
    }

    /// Records that the item at `index` was evaluated.
    mutating func insert(item index: Int) {
        if items == nil { items = [index] } else { items!.insert(index) }
    }

    /// Adds what `other` evaluated.
    mutating func merge(_ other: Annotations) {
        if other.allProperties { allProperties = true }
        if !allProperties, let names = other.properties {
            if properties == nil { properties = names } else { properties!.formUnion(names) }
        }
        if other.allItems { allItems = true }
        if other.prefixItems > prefixItems { prefixItems = other.prefixItems }
        if !allItems, let indices = other.items {
            if items == nil { items = indices } else { items!.formUnion(indices) }
        }
    }

    /// Whether the property `name` was evaluated.
    func evaluated(property name: String) -> Bool { allProperties || properties?.contains(name) == true }

    /// Whether the item at `index` was evaluated.
    func evaluated(item index: Int) -> Bool { allItems || index < prefixItems || items?.contains(index) == true }
}
