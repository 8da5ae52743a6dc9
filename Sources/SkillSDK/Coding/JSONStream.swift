import SkillJSON

/// The encoder's state: the bytes written so far and the open containers, innermost last.
///
/// Each container is a level with a serial number. A container may write only while its level is open;
/// writing through an outer container closes the levels inside it (a nested container is done once its
/// parent moves on), and writing through a closed one gives up.
final class JSONStream {
    /// Thrown when the stream cannot follow the value; the caller falls back to the tree encoder.
    struct Unsupported: Error {}

    private enum Kind { case slot, single, object, array }

    private struct Level {
        let serial: Int
        var kind: Kind
        /// Members or elements written.
        var members = 0
        /// The first member's key: an object with one member never needs `keys`.
        var firstKey: String? = nil
        /// Where this object's later keys start in `keys`.
        let keyStart: Int
        /// The keys of a large object, for the duplicate check.
        var keyIndex: Set<String>? = nil
    }

    /// Above this many members an object checks for duplicate keys in a set instead of linearly.
    private static let linearKeyLimit = 16

    // Unchecked exclusivity: one encode uses the stream on one thread, and no member is borrowed across
    // a call that could reach it again (the dynamic checks cost more than the writes).
    @exclusivity(unchecked) private var writer = JSONByteWriter()
    @exclusivity(unchecked) private var levels: [Level] = []
    /// The keys of the open objects, outermost first.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var lastSerial = 0
    /// Set once the stream gave up: every later write gives up too (a value may catch and carry on).
    @exclusivity(unchecked) private var failed = false
    @exclusivity(unchecked) private var handedOver = false

    deinit { if !handedOver { writer.release() } }

    /// The text, once the value is encoded; nil when it encoded nothing (an error for the tree encoder).
    func finish() -> JSONText? {
        guard !failed, let root = levels.first, root.kind != .slot else { return nil }
        while !levels.isEmpty { closeInnermost() }
        handedOver = true
        return writer.take()
    }

    // MARK: - Levels

    /// Opens a slot for one value (the root, a member or an element) and returns its serial.
    func openSlot() -> Int {
        lastSerial += 1
        levels.append(Level(serial: lastSerial, kind: .slot, keyStart: keys.count))
        return lastSerial
    }

    /// Marks the stream as given up; the error to throw.
    func giveUp() -> Unsupported {
        failed = true
        return Unsupported()
    }

    /// Makes the level `serial` the innermost one, closing those inside it; its index.
    private func focus(_ serial: Int) throws(Unsupported) -> Int {
        guard !failed else { throw Unsupported() }
        var index = levels.count - 1
        while index >= 0, levels[index].serial > serial { index -= 1 }
        guard index >= 0, levels[index].serial == serial else { throw giveUp() }
        while levels.count - 1 > index { closeInnermost() }
        return index
    }

    private func closeInnermost() {
        let level = levels.removeLast()
        switch level.kind {
        case .slot: writer.writeNull()  // a member or element that encoded nothing reads as null
        case .single: break
        case .object:
            writer.write(UInt8(ascii: "}"))
            if keys.count > level.keyStart { keys.removeSubrange(level.keyStart...) }
        case .array: writer.write(UInt8(ascii: "]"))
        }
    }

    /// Makes slot `serial` an object (or keeps it one).
    func beginObject(_ serial: Int) throws(Unsupported) {
        let index = try focus(serial)
        switch levels[index].kind {
        case .object: return
        case .slot:
            levels[index].kind = .object
            writer.write(UInt8(ascii: "{"))
        case .single, .array: throw giveUp()
        }
    }

    /// Makes slot `serial` an array (or keeps it one).
    func beginArray(_ serial: Int) throws(Unsupported) {
        let index = try focus(serial)
        switch levels[index].kind {
        case .array: return
        case .slot:
            levels[index].kind = .array
            writer.write(UInt8(ascii: "["))
        case .single, .object: throw giveUp()
        }
    }

    /// Starts member `key` of object `serial`: the separator, the key and the colon.
    func beginMember(_ serial: Int, key: String) throws(Unsupported) {
        let index = try focus(serial)
        guard levels[index].kind == .object else { throw giveUp() }
        let members = levels[index].members
        if members == 0 {
            levels[index].firstKey = key
        } else if members < JSONStream.linearKeyLimit {
            if key == levels[index].firstKey { throw giveUp() }
            for existing in keys[levels[index].keyStart...] where existing == key { throw giveUp() }
            keys.append(key)
        } else {
            if levels[index].keyIndex == nil {
                var seen = Set(keys[levels[index].keyStart...])
                if let first = levels[index].firstKey { seen.insert(first) }
                levels[index].keyIndex = seen
            }
            guard levels[index].keyIndex!.insert(key).inserted else { throw giveUp() }
        }
        levels[index].members = members + 1
        if members > 0 { writer.write(UInt8(ascii: ",")) }
        writer.write(key)
        writer.write(UInt8(ascii: ":"))
    }

    /// Starts the next element of array `serial`; the elements before it.
    func beginElement(_ serial: Int) throws(Unsupported) -> Int {
        let index = try focus(serial)
        guard levels[index].kind == .array else { throw giveUp() }
        let members = levels[index].members
        levels[index].members = members + 1
        if members > 0 { writer.write(UInt8(ascii: ",")) }
        return members
    }

    /// The number of elements array `serial` has so far.
    func elementCount(_ serial: Int) -> Int {
        levels.last(where: { $0.serial == serial })?.members ?? 0
    }

    // MARK: - Values

    /// Fills slot `serial` with one primitive value.
    func writeSingle(_ serial: Int, _ write: (inout JSONByteWriter) throws(Unsupported) -> Void) throws(Unsupported) {
        let index = try focus(serial)
        guard levels[index].kind == .slot else { throw giveUp() }
        levels[index].kind = .single
        do {
            try write(&writer)
        } catch {
            throw giveUp()
        }
    }

    /// Writes a value that directly follows a key or a separator (the position is already open).
    func writeValue<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws {
        switch value {
        case let value as String: writer.write(value)
        case let value as Bool: writer.write(value)
        case let value as Int: writer.write(Int64(value))
        case let value as Int64: writer.write(value)
        case let value as Double:
            guard value.isFinite else { throw giveUp() }
            writer.write(finite: value)
        default: try value.encode(to: JSONStreamTreeEncoder(stream: self, serial: openSlot(), codingPath: codingPath()))
        }
    }

    /// Encodes `value` into slot `serial`, taking the primitive types directly.
    func store<T: Encodable>(_ value: T, inSlot serial: Int, codingPath: [any CodingKey]) throws {
        switch value {
        case is String, is Bool, is Int, is Int64, is Double:
            let index = try focus(serial)
            guard levels[index].kind == .slot else { throw giveUp() }
            levels[index].kind = .single
            try writeValue(value, codingPath: codingPath)
        default: try value.encode(to: JSONStreamTreeEncoder(stream: self, serial: serial, codingPath: codingPath))
        }
    }

    // Primitive writers for the containers.

    func writeNull() { writer.writeNull() }
    func write(_ value: Bool) { writer.write(value) }
    func write(_ value: String) { writer.write(value) }
    func write(_ value: Int64) { writer.write(value) }

    func write(_ value: Double) throws(Unsupported) {
        guard value.isFinite else { throw giveUp() }
        writer.write(finite: value)
    }

    func write<T: FixedWidthInteger>(integer value: T) throws(Unsupported) {
        guard let wide = Int64(exactly: value) else { throw giveUp() }
        writer.write(wide)
    }
}
