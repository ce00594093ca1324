/// The limits every document Reel reads (scenes, presets, manifests) is checked against before it is
/// parsed, so hostile input gets a located error instead of a crash, a hang or unbounded memory.
import Foundation

public enum DocumentLimits {
    /// The largest document read, in bytes (a scene of 100,000 layers is about 8 MB).
    public static let maximumBytes = 64 << 20
    /// Values a document may expand to, counting every copy a YAML alias makes: a few hundred bytes of
    /// nested aliases ("billion laughs") otherwise expand to billions.
    public static let maximumValues = 2_000_000
    /// Nesting, for JSON and YAML alike (JSONParser.maximumDepth).
    public static var maximumDepth: Int { JSONParser.maximumDepth }

    /// A document's text: refused past `maximumBytes` (before reading) and where it is not UTF-8 (at the
    /// first bad byte's line and column).
    public static func readText(_ path: String, what: String) throws(DocumentError) -> String {
        let data = Data(try InputFiles.read(path, maximumBytes: maximumBytes, what: "a \(what)"))
        guard let text = String(data: data, encoding: .utf8) else {
            throw DocumentError(
                file: path, location: firstInvalidUTF8([UInt8](data)), message: "this byte is not UTF-8 text",
                fix: "save the file as UTF-8")
        }
        return text
    }

    /// The line and column of the first byte that is not part of valid UTF-8, or nil.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> SourceLocation? {
        var line = 1, column = 1, i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            var length = 0
            if b < 0x80 {
                length = 1
            } else if b >= 0xC2 && b <= 0xDF {
                length = 2
            } else if b >= 0xE0 && b <= 0xEF {
                length = 3
            } else if b >= 0xF0 && b <= 0xF4 {
                length = 4
            }
            var valid = length > 0 && i + length <= n
            if valid && length > 1 {
                for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { valid = false }
                if valid && length == 3 {
                    let c = bytes[i + 1]
                    // Overlong forms and UTF-16 surrogates.
                    if (b == 0xE0 && c < 0xA0) || (b == 0xED && c >= 0xA0) { valid = false }
                }
                if valid && length == 4 {
                    let c = bytes[i + 1]
                    if (b == 0xF0 && c < 0x90) || (b == 0xF4 && c >= 0x90) { valid = false }
                }
            }
            guard valid else { return SourceLocation(line: line, column: column) }
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            i += length
        }
        return nil
    }

    /// Where a YAML text nests deeper than `limit`, by a bound that never underestimates: every open
    /// flow bracket, every indentation level still open and every block indicator (`- `, `? `, `: `) on
    /// the line counts one level. libyaml and Yams recurse once per level, so 10,000 levels overflow the
    /// stack before any depth check on the parsed tree could run.
    public static func yamlNestingBeyond(_ limit: Int, in text: String) -> SourceLocation? {
        let bytes = Array(text.utf8)
        let n = bytes.count
        var i = 0, line = 1, lineStart = 0
        var flow = 0
        var indents: [Int] = []
        var blockScalarParent: Int?
        var quote: UInt8?
        func at(_ k: Int) -> UInt8 { k < n ? bytes[k] : 0x0A }
        while i < n {
            // At the start of a line (outside a quoted scalar): indentation.
            var col = 0
            while at(i + col) == 0x20 { col += 1 }
            let first = at(i + col)
            let blank = first == 0x0A || first == 0x0D || (first == 0x23 && quote == nil)
            if let parent = blockScalarParent, blank || col > parent {
                // A block scalar's text (`|`, `>`): no structure in it.
                while i < n && bytes[i] != 0x0A { i += 1 }
                i += 1
                line += 1
                lineStart = i
                continue
            }
            blockScalarParent = nil
            if quote == nil && flow == 0 && !blank {
                while let last = indents.last, last >= col { indents.removeLast() }
                indents.append(col)
            }
            var levels = 0
            var k = i + col
            while k < n && bytes[k] != 0x0A {
                let c = bytes[k]
                if let q = quote {
                    if c == q {
                        if q == 0x27 && at(k + 1) == 0x27 {
                            k += 1  // '' inside a single-quoted scalar
                        } else {
                            quote = nil
                        }
                    } else if q == 0x22 && c == 0x5C {
                        k += 1  // an escape inside a double-quoted scalar
                    }
                } else {
                    switch c {
                    case 0x22, 0x27:
                        quote = c
                    case 0x23 where k == i || bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09:
                        while k + 1 < n && bytes[k + 1] != 0x0A { k += 1 }  // a comment
                    case 0x5B, 0x7B:
                        flow += 1
                    case 0x5D, 0x7D:
                        flow = max(0, flow - 1)
                    case 0x2D, 0x3F, 0x3A:
                        let next = at(k + 1)
                        if next == 0x20 || next == 0x0A || next == 0x0D || next == 0x09 { levels += 1 }
                    default:
                        break
                    }
                }
                if indents.count + levels + flow > limit {
                    return SourceLocation(line: line, column: k - lineStart + 1)
                }
                k += 1
            }
            if quote == nil && endsWithBlockScalarHeader(bytes[(i + col)..<min(k, n)]) { blockScalarParent = col }
            i = k + 1
            line += 1
            lineStart = i
        }
        return nil
    }

    /// True when a line ends with a block scalar's header: `|` or `>`, then chomping and indentation
    /// indicators (`|-`, `>+`, `|2`), then nothing but a comment.
    static func endsWithBlockScalarHeader(_ line: ArraySlice<UInt8>) -> Bool {
        var end = line.endIndex
        if let hash = line.firstIndex(where: { $0 == 0x23 }), hash > line.startIndex, line[hash - 1] == 0x20 { end = hash }
        var k = end - 1
        while k >= line.startIndex && (line[k] == 0x20 || line[k] == 0x0D || line[k] == 0x09) { k -= 1 }
        while k >= line.startIndex && (line[k] == 0x2D || line[k] == 0x2B || (line[k] >= 0x30 && line[k] <= 0x39)) { k -= 1 }
        guard k >= line.startIndex, line[k] == 0x7C || line[k] == 0x3E else { return false }
        return k == line.startIndex || line[k - 1] == 0x20
    }
}
