// The located JSON tree (values that remember their line and column) and the strict parser that builds it.

/// A place in a source file, 1-based.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A JSON value that remembers where it was written, so that errors found while decoding a scene can
/// name the line and column as well as the key path. (Foundation's decoders keep no positions.)
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case object([(key: String, keyLocation: SourceLocation, value: JSONNode)])
        case array([JSONNode])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    public var value: Value
    public var location: SourceLocation

    public init(value: Value, location: SourceLocation) {
        self.value = value
        self.location = location
    }

    public var kindName: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

public struct JSONSyntaxError: Error, Sendable {
    public var location: SourceLocation
    public var message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes with line/column tracking and a nesting limit, so that
/// hostile input gives an error rather than a stack overflow.
public struct JSONParser {
    public static let maximumDepth = 256
    /// Objects up to this many keys look for a duplicate key by comparing, larger ones through a set.
    static let keysComparedInPlace = 12

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.error("the file is empty; a scene is a JSON object") }
        let root = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the top-level value")
        }
        return root
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The column of `index`, counted on from the last position asked about on the same line: a value's
    /// location then costs the bytes since the previous one, so a one-line document of n values takes
    /// O(n), not O(n²).
    private var columnMark = (index: 0, column: 1)

    private mutating func here() -> SourceLocation {
        if columnMark.index < lineStart || columnMark.index > index { columnMark = (lineStart, 1) }
        var column = columnMark.column
        var i = columnMark.index
        while i < index {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        columnMark = (index, column)
        return SourceLocation(line: line, column: column)
    }

    private var location: SourceLocation {
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        var i = lineStart
        while i < index {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        let start = here()
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(depth: depth), location: start)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(depth: depth), location: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), location: start)
        default:
            throw error("unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in w {
            guard index < bytes.count, bytes[index] == b else {
                throw error("unexpected \(describeCurrent()); did you mean '\(word)'? (JSON strings need double quotes)")
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var members: [(key: String, keyLocation: SourceLocation, value: JSONNode)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyLocation = here()
            let key = try parseString()
            // A few keys are compared one by one, more through a set: hashing every key of the many
            // small objects a scene has cost more than comparing it with its few neighbours.
            let duplicate: Bool
            if members.count < Self.keysComparedInPlace {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key)) }
                duplicate = !seen.insert(key).inserted
            }
            guard !duplicate else {
                throw JSONSyntaxError(location: keyLocation, message: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append((key, keyLocation, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    throw error("trailing comma before '}'")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or '}' (is a comma missing?)")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    throw error("trailing comma before ']'")
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("unexpected \(describeCurrent()); expected ',' or ']' (is a comma missing?)")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // Most strings (keys, colours, names) have no escape: made straight from the file's bytes, not a
        // byte at a time.
        var end = index
        var high: UInt8 = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            high |= bytes[end]
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            // ASCII needs no validating (the generic validation cost 950 instructions a key).
            let s: String
            if high < 0x80 {
                s = String(decoding: bytes[index..<end], as: UTF8.self)
            } else {
                guard let v = String(validating: bytes[index..<end], as: UTF8.self) else {
                    throw error("string is not valid UTF-8")
                }
                s = v
            }
            index = end + 1
            return s
        }
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = UnicodeScalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(UnicodeScalar(e)))' in string")
                }
            case 0x00..<0x20:
                throw error("control character in string (write newlines as \\n)")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    /// Exact powers of ten, 10⁰ … 10²² (each a double without rounding).
    private static let powersOfTen: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { x, _ in x * 10 } }

    /// A number of at most 15 significant digits with a power of ten within 10^±22, without making a
    /// string of it: its digits are an exact integer and the power an exact double, so one multiplication
    /// or division, rounded once, gives the correctly rounded value, as `Double(String)` does (Clinger's
    /// fast path). Nil for any other number (then parsed as text). `text` is a valid JSON number.
    static func exactDecimal(_ text: ArraySlice<UInt8>) -> Double? {
        var i = text.startIndex
        let negative = text[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0, significant = 0, exponent = 0, fraction = false
        while i < text.endIndex {
            let b = text[i]
            if b == UInt8(ascii: ".") {
                fraction = true
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                if mantissa > 0 || b != UInt8(ascii: "0") { significant += 1 }
                guard significant <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(b - UInt8(ascii: "0"))
                if fraction { exponent -= 1 }
            } else {
                break
            }
            i += 1
        }
        if i < text.endIndex {
            // An exponent: e, an optional sign, digits (more than four of them is beyond the fast path).
            i += 1
            var sign = 1
            if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                if text[i] == UInt8(ascii: "-") { sign = -1 }
                i += 1
            }
            guard text.endIndex - i <= 4 else { return nil }
            var e = 0
            while i < text.endIndex {
                e = e * 10 + Int(text[i] - UInt8(ascii: "0"))
                i += 1
            }
            exponent += sign * e
        }
        let m = Double(mantissa)
        let value: Double
        if mantissa == 0 {
            value = 0
        } else if exponent >= 0 && exponent <= 22 {
            value = m * powersOfTen[exponent]
        } else if exponent < 0 && exponent >= -22 {
            value = m / powersOfTen[-exponent]
        } else {
            return nil
        }
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        guard digits() > 0 else { throw error("invalid number: expected a digit") }
        if bytes[intStart] == UInt8(ascii: "0"), index - intStart > 1 {
            index = intStart
            throw error("invalid number: leading zeros are not allowed")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number: expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number: expected a digit in the exponent") }
        }
        if let value = Self.exactDecimal(bytes[start..<index]) { return value }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return value
    }
}

extension JSONParser {
    /// `s` as a JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8
    /// (what `reel`'s JSON lines and the asciicast writer both write).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
