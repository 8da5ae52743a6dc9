import SkillJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Compact JSON text written into one growing `malloc`'d buffer, byte for byte what
/// ``JSONValue/serialized(options:)`` writes for the same values (compact, members in the order written,
/// non-ASCII left as UTF-8).
///
/// The buffer is handed over whole (``take()``): a plugin result goes to the host without a copy and is
/// released by `free_result` with `free`. Whoever owns the writer calls ``take()`` or ``release()`` once.
struct JSONByteWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = Swift.max(capacity, 16)
        base = malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    /// The text, NUL-terminated, as a `malloc`'d buffer the caller now owns; the writer must not be used
    /// afterwards.
    mutating func take() -> JSONText {
        reserve(1)
        base[count] = 0
        return JSONText(pointer: base, length: count)
    }

    /// Frees the buffer without handing it over; the writer must not be used afterwards.
    func release() { free(base) }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        base = realloc(base, newCapacity)!.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    mutating func write(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// Writes ASCII text (a literal or a number's digits) as is.
    mutating func write(ascii text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeNull() { write(ascii: "null") }

    mutating func write(_ value: Bool) { value ? write(ascii: "true") : write(ascii: "false") }

    /// Decimal digits, as `String(value)`.
    mutating func write(_ value: Int64) {
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max; one more for the sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var start = 21
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[start...]))
        }
    }

    /// A finite double as ``JSONValue/serialized(options:)`` writes it: integral values keep a ".0", others
    /// the shortest text that reads back as the same double.
    mutating func write(finite value: Double) {
        if value.rounded() == value, abs(value) < 1e15 {
            write(Int64(value))
            write(ascii: ".0")
        } else {
            var text = "\(value)"
            text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
        }
    }

    /// A string literal with the escapes RFC 8259 requires (those of ``JSONValue/writeString(_:to:)``).
    mutating func write(_ string: String) {
        var string = string
        let clean = string.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            reserve(bytes.count + 2)
            base[count] = UInt8(ascii: "\"")
            if let source = bytes.baseAddress { (base + count + 1).update(from: source, count: bytes.count) }
            base[count + 1 + bytes.count] = UInt8(ascii: "\"")
            count += bytes.count + 2
            return true
        }
        guard !clean else { return }
        var escaped = ""
        JSONValue.writeString(string, to: &escaped)
        escaped.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }
}

/// A `malloc`'d, NUL-terminated JSON text (the NUL not counted in ``length``) and who frees it: whoever
/// holds it last, with ``free()``. What a plugin hands the host in `skill_result.json`.
struct JSONText: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    let length: Int

    /// A copy of `text`.
    init(copying text: String) {
        var text = text
        (pointer, length) = text.withUTF8 { bytes in
            let pointer = malloc(bytes.count + 1)!.assumingMemoryBound(to: UInt8.self)
            if let source = bytes.baseAddress { pointer.update(from: source, count: bytes.count) }
            pointer[bytes.count] = 0
            return (pointer, bytes.count)
        }
    }

    init(pointer: UnsafeMutablePointer<UInt8>, length: Int) {
        self.pointer = pointer
        self.length = length
    }

    /// Frees the buffer; the value must not be used afterwards.
    func release() { free(pointer) }
}
