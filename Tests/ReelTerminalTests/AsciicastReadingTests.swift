// asciicast files read into recordings: versions 2 and 3, and every refusal located by line and column.
import ReelDocument
import ReelTerminal
import Testing

@Suite struct AsciicastReadingTests {
    func read(_ text: String) throws(DocumentError) -> TerminalRecording {
        try TerminalRecording.parse(Array(text.utf8), file: "s.cast")
    }

    func failure(_ text: String) -> DocumentError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func versionTwo() throws {
        let r = try read(
            """
            {"version": 2, "width": 80, "height": 24, "idle_time_limit": 2, "title": "demo",
             "theme": {"fg": "#cccccc", "bg": "#000", "palette": "#000000:#aa0000:#00aa00:#aa5500:#0000aa:#aa00aa:#00aaaa:#aaaaaa"}}
            [0.5, "o", "ab"]
            [1.25, "r", "100x30"]

            [2, "m", "here"]
            [3, "i", "q"]
            [4, "o", "c"]
            [4.5, "future", "ignored"]
            """.replacingOccurrences(of: ",\n \"theme\"", with: ", \"theme\""))
        #expect(r.version == 2 && r.columns == 80 && r.rows == 24 && r.idleTimeLimit == 2 && r.title == "demo")
        #expect(r.theme?.background == TerminalRGB(0, 0, 0) && r.theme?.palette.count == 8)
        #expect(r.events.map(\.time) == [0.5, 1.25, 2, 3, 4])
        #expect(r.events[1].kind == .resize(columns: 100, rows: 30) && r.events[2].kind == .marker("here"))
        #expect(r.events[4].kind == .output(2..<3) && r.output == Array("abc".utf8))
        #expect(r.length == 4)
    }

    @Test func versionThreeTimesAreIntervals() throws {
        let r = try read(
            """
            {"version": 3, "term": {"cols": 20, "rows": 5}}
            # a comment
            [0.5, "o", "a"]
            [0.25, "o", "b"]
            [1, "x", "2"]
            """)
        #expect(r.columns == 20 && r.rows == 5)
        #expect(r.events.map(\.time) == [0.5, 0.75, 1.75])
        #expect(r.events[2].kind == .exit(2))
    }

    /// Pauses past the limit are cut to it: 0.5, then gaps of 4.5 (→ 1) and 0.5, then 10 (→ 1).
    @Test func idleTimeLimitCutsPauses() throws {
        let r = try read(
            """
            {"version": 2, "width": 10, "height": 2}
            [0.5, "o", "a"]
            [5, "o", "b"]
            [5.5, "o", "c"]
            [15.5, "o", "d"]
            """)
        #expect(r.playedTimes(idleTimeLimit: 1) == [0.5, 1.5, 2, 3])
        #expect(r.playedTimes(idleTimeLimit: nil) == [0.5, 5, 5.5, 15.5])
    }

    @Test func aClockSteppingBackIsHeld() throws {
        let r = try read("{\"version\": 2, \"width\": 10, \"height\": 2}\n[2, \"o\", \"a\"]\n[1.5, \"o\", \"b\"]\n")
        #expect(r.events.map(\.time) == [2, 2])
    }

    @Test func refusalsNameTheLineAndColumn() {
        let header = "{\"version\": 2, \"width\": 10, \"height\": 2}\n"
        let cases: [(String, Int, Int, String)] = [
            ("", 0, 0, "is empty"),
            ("[1, \"o\", \"a\"]\n", 1, 1, "the header is an array"),
            ("{\"width\": 3}\n", 1, 1, "no \"version\""),
            ("{\"version\": 1, \"width\": 3, \"height\": 2}\n", 1, 13, "version 1 is not read"),
            (
                "{\"version\": 2, \"width\": 100000, \"height\": 2}\n", 1, 25,
                "\"width\" must be a whole number of cells in 1…1000"
            ),
            ("{\"version\": 2, \"width\": 1000, \"height\": 500}\n", 1, 1, "more than 250000 cells"),
            (header + "[-1, \"o\", \"a\"]\n", 2, 2, "0 or more seconds, got -1"),
            (header + "[1e300, \"o\", \"a\"]\n", 2, 2, "past the limit of 360000 s"),
            (header + "[1, \"r\", \"100000x2\"]\n", 2, 10, "a resize gives \"COLUMNSxROWS\""),
            (header + "[1, \"r\", \"wide\"]\n", 2, 10, "a resize gives"),
            (header + "{\"t\": 1}\n", 2, 1, "an event is [time, code, data], got an object"),
            (header + "[\"1\", \"o\", \"a\"]\n", 2, 2, "a number of seconds, got a string"),
            (header + "[1, \"o\", 5]\n", 2, 10, "code and data are strings, got a number"),
            (header + "\n\n[1, \"o\", \"a\"\n", 4, 13, "an event is not valid JSON"),
        ]
        for (text, line, column, message) in cases {
            guard let e = failure(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(e.file == "s.cast")
            #expect(e.description.contains(message), "\(e.description)")
            if line > 0 { #expect(e.location == SourceLocation(line: line, column: column), "\(e.description)") }
        }
    }

    @Test func invalidUTF8IsRefusedWhereItIs() {
        var bytes = Array("{\"version\": 2, \"width\": 10, \"height\": 2}\n[1, \"o\", \"ab".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\"]\n".utf8)
        do {
            _ = try TerminalRecording.parse(bytes, file: "s.cast")
            Issue.record("invalid UTF-8 accepted")
        } catch {
            #expect(error.location?.line == 2, "\(error.description)")
        }
    }

    @Test func looksLikeAsciicast() {
        #expect(TerminalRecording.looksLikeAsciicast(Array("{\"version\": 2, \"width\": 3, \"height\": 1}\n[".utf8)))
        #expect(TerminalRecording.looksLikeAsciicast(Array("{\"version\":3,\"term\":{}}".utf8)))
        #expect(!TerminalRecording.looksLikeAsciicast(Array("{\"width\": 3, \"layers\": []}".utf8)))
        #expect(!TerminalRecording.looksLikeAsciicast(Array("{\"v\": \"5.7\", \"layers\": []}".utf8)))
    }
}
