// JSON numbers, strings and keys read without making text of them, against the standard library's parse.
import ReelDocument
import ReelTestSupport
import Testing

@Suite struct JSONNumberTests {
    /// Each number, parsed in a document, is the double `Double(String)` (strtod, correctly rounded) gives
    /// for its text: the fast path's numbers (≤ 15 significant digits, powers to 10^±22) and those past it.
    @Test func numbersAreTheStandardLibrarysDoubles() throws {
        var g = SeededGenerator(state: 11)
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "1e22", "1e23", "1e-22", "1e-23", "123456789012345",
            "1234567890123456", "9007199254740993", "0.000000000000000000001", "1.7976931348623157e308", "5e-324",
            "2.2250738585072014e-308", "123.456e-7", "1E+2", "4.35", "1366.169937154607", "0.17", "-709.954001576",
        ]
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...18, using: &g)
            var t = Bool.random(using: &g) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &g)
            for k in 0..<digits {
                if k == point && k > 0 { t += "." }
                t += String(k == 0 && digits > 1 ? Int.random(in: 1...9, using: &g) : Int.random(in: 0...9, using: &g))
            }
            if Int.random(in: 0..<3, using: &g) == 0 { t += "e\(Int.random(in: -30...30, using: &g))" }
            texts.append(t)
        }
        for text in texts {
            let node = try JSONParser.parse(Array("[\(text)]".utf8))
            guard case .array(let items) = node.value, case .number(let v) = items[0].value else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            let expected = try #require(Double(text))
            #expect(v.bitPattern == expected.bitPattern, "\(text): \(v) against \(expected)")
        }
    }

    /// Strings with and without escapes read the same as written.
    @Test func stringsWithAndWithoutEscapes() throws {
        let node = try JSONParser.parse(Array(#"["plain", "tab\there", "quote \" and \\ slash", "é ü 中", "\u00e9", ""]"#.utf8))
        guard case .array(let items) = node.value else {
            Issue.record("not an array")
            return
        }
        let strings = items.map { item -> String? in if case .string(let s) = item.value { return s } else { return nil } }
        #expect(strings == ["plain", "tab\there", "quote \" and \\ slash", "é ü 中", "é", ""])
        // Bytes that are not UTF-8, in a string without escapes, are still refused.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]) }
    }

    /// A repeated key is refused wherever it falls: among an object's first keys (compared in place) and
    /// past them (looked up in a set made when the object grows), at the repeated key's place.
    @Test func duplicateKeysAtEveryPlace() throws {
        let limit = 40
        for count in [2, 11, 12, 13, 20, limit] {
            for repeated in 1..<count {
                let first = repeated / 2
                let keys = (0..<count).map { $0 == repeated ? "k\(first)" : "k\($0)" }
                let text = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ",\n") + "}"
                do {
                    _ = try JSONParser.parse(Array(text.utf8))
                    Issue.record("\(count) keys, k\(first) again at \(repeated): accepted")
                } catch {
                    #expect(error.message == "duplicate key \"k\(first)\"")
                    #expect(error.location.line == repeated + 1)
                }
            }
            let distinct = "{" + (0..<count).map { "\"k\($0)\": 1" }.joined(separator: ",") + "}"
            let node = try JSONParser.parse(Array(distinct.utf8))
            guard case .object(let members) = node.value else {
                Issue.record("not an object")
                continue
            }
            #expect(members.map(\.key) == (0..<count).map { "k\($0)" })
        }
    }

    /// `Members` answers every key as the dictionary it wraps does, held or not (its quick "absent" only
    /// ever rules out keys the object does not hold).
    @Test func membersAnswerAsTheirDictionary() throws {
        var g = SeededGenerator(state: 5)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789é")
        func key() -> String { String((0..<Int.random(in: 0...18, using: &g)).map { _ in alphabet.randomElement(using: &g)! }) }
        for _ in 0..<200 {
            var all: [String: JSONNode] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &g) {
                all[key()] = JSONNode(value: .number(1), location: SourceLocation(line: 1, column: 1))
            }
            let members = Members(all)
            for k in Array(all.keys) + (0..<50).map({ _ in key() }) {
                #expect((members[k] != nil) == (all[k] != nil), "\(k)")
            }
        }
    }
}
