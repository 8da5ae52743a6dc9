/// Text from a plugin made fit for a person's terminal: what a plugin writes (its stderr, its error messages)
/// must never drive the terminal it is shown on — no escape sequence that sets the window title, writes the
/// clipboard (OSC 52), moves the cursor or clears the screen, no control character, no carriage return that
/// overwrites a line. One rule for every place that shows such text.
public enum TerminalText {
    /// The most characters one line keeps; the rest is replaced by ``cutMark``.
    public static let maximumLineLength = 1000
    /// What ends a line that was cut.
    public static let cutMark = " …(cut)"

    /// `text` without escape sequences and control characters (a tab becomes a space; line ends stay only
    /// when `keepingLineBreaks`), each line at most ``maximumLineLength`` characters.
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var splitter = LineSplitter()
        var lines = splitter.feed(Array(text.utf8))
        if let last = splitter.finish() { lines.append(last) }
        return lines.joined(separator: keepingLineBreaks ? "\n" : " ")
    }

    /// Turns a byte stream into sanitized lines as it arrives (a plugin's stderr read in pieces): a line is
    /// handed out when its newline comes; an unfinished one waits for ``finish()``.
    public struct LineSplitter: Sendable {
        private var line: [UInt8] = []
        private var characters = 0
        private var cut = false
        private var state = State.text

        /// Where the splitter is inside an escape sequence.
        private enum State: Sendable {
            case text
            /// After ESC.
            case escape
            /// In a CSI sequence (ESC [ or U+009B), until its final byte.
            case controlSequence
            /// In a string (OSC, DCS, SOS, PM, APC), until BEL or ESC \.
            case string
            /// ESC inside a string: `\` ends it.
            case stringEscape
        }

        public init() {}

        /// Takes more bytes; returns the lines they completed.
        public mutating func feed(_ bytes: [UInt8]) -> [String] {
            var done: [String] = []
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                // C1 controls in UTF-8 (U+0080–U+009F: 0xC2 0x80–0x9F), e.g. U+009B, a one-character CSI.
                if state == .text, byte == 0xC2, index < bytes.count, (0x80...0x9F).contains(bytes[index]) {
                    let c1 = bytes[index]
                    index += 1
                    switch c1 {
                    case 0x9B: state = .controlSequence
                    case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
                    default: break
                    }
                    continue
                }
                switch state {
                case .text:
                    switch byte {
                    case 0x0A: done.append(takeLine())
                    case 0x1B: state = .escape
                    case 0x09: append(UInt8(ascii: " "))
                    case 0x00..<0x20, 0x7F: break
                    default: append(byte)
                    }
                case .escape:
                    switch byte {
                    case UInt8(ascii: "["): state = .controlSequence
                    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"): state = .string
                    case 0x20...0x2F: break  // intermediate bytes of a two-character sequence
                    default: state = .text
                    }
                case .controlSequence:
                    if (0x40...0x7E).contains(byte) { state = .text }
                    if byte == 0x0A {
                        state = .text
                        done.append(takeLine())
                    }
                case .string:
                    if byte == 0x07 { state = .text }
                    if byte == 0x1B { state = .stringEscape }
                    if byte == 0x0A {
                        state = .text
                        done.append(takeLine())
                    }
                case .stringEscape:
                    state = byte == UInt8(ascii: "\\") ? .text : .string
                }
            }
            return done
        }

        /// The unfinished last line, if any (the stream ended without a newline).
        public mutating func finish() -> String? {
            state = .text
            guard !line.isEmpty || cut else { return nil }
            return takeLine()
        }

        private mutating func append(_ byte: UInt8) {
            guard !cut else { return }
            // A character starts at every byte that is not a UTF-8 continuation byte.
            if byte & 0xC0 != 0x80 {
                guard characters < TerminalText.maximumLineLength else {
                    cut = true
                    return
                }
                characters += 1
            }
            line.append(byte)
        }

        private mutating func takeLine() -> String {
            var text = String(decoding: line, as: UTF8.self)
            if cut { text += TerminalText.cutMark }
            line.removeAll(keepingCapacity: true)
            characters = 0
            cut = false
            return text
        }
    }
}
