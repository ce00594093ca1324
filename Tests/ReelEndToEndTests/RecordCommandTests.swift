// `reel record`: a tape run in a real shell gives the recording its steps say, the same twice; waits that
// never match, and bad outputs, are refused.
import Foundation
import ReelTerminal
import Testing

@Suite struct RecordCommandTests {
    static let tape = """
        set columns 40
        set rows 6
        set shell /bin/sh
        set typingSpeed 0.1
        type "printf 'a\\\\n'"
        enter
        type "seq 2"
        enter
        wait-for "^2$"
        sleep 1
        """

    /// By hand: the prompt at 0; each of the 12 characters of printf 'a\\n' at 0.1 s steps (0 … 1.1);
    /// enter at 1.2 brings the output and the next prompt; "seq 2" typed at 1.3 … 1.7; enter at 1.8
    /// brings 1, 2 and the prompt; the wait takes no time; the sleep ends at 1.9 + 1 = 2.9.
    @Test func aTapeGivesItsRecordingTwiceAlike() throws {
        let ws = try Workspace()
        let tape = ws.write("t.tape", Self.tape)
        let r1 = try runReel(["record", tape, "-o", ws.file("a.cast"), "--quiet"], directory: ws.path)
        try #require(r1.status == 0, "\(r1.stderr)")
        let r2 = try runReel(["record", tape, "-o", ws.file("b.cast"), "--quiet"], directory: ws.path)
        try #require(r2.status == 0, "\(r2.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: ws.file("a.cast")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: ws.file("b.cast")))))
        let recording = try TerminalRecording.parse([UInt8](a), file: "a.cast")
        #expect(recording.columns == 40 && recording.rows == 6)
        func text(_ e: TerminalEvent) -> String {
            if case .output(let range) = e.kind { return String(decoding: recording.output[range], as: UTF8.self) }
            return ""
        }
        let events = recording.events.map { (time: $0.time, text: text($0)) }
        var expected: [(Double, String)] = [(0, "$ ")]
        for (i, c) in Array("printf 'a\\n'").enumerated() { expected.append((Double(i) / 10, String(c))) }
        expected.append((1.2, "\r\na\r\n$ "))
        for (i, c) in Array("seq 2").enumerated() { expected.append((1.3 + Double(i) / 10, String(c))) }
        expected += [(1.8, "\r\n1\r\n2\r\n$ "), (2.9, "")]
        #expect(events.count == expected.count, "\(events)")
        for (e, x) in zip(events, expected) {
            #expect(abs(e.time - x.0) < 1e-9 && e.text == x.1, "\(e) against \(x)")
        }
    }

    @Test func aWaitThatNeverMatchesTimesOut() throws {
        let ws = try Workspace()
        let tape = ws.write("t.tape", "set shell /bin/sh\ntype \"echo hi\"\nenter\nwait-for \"never\" 1\n")
        let r = try runReel(["record", tape, "-o", ws.file("a.cast")], directory: ws.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("t.tape:4:1") && r.stderr.contains("wait-for \"never\" timed out after 1 s"), "\(r.stderr)")
        #expect(r.stderr.contains("hi"), "the output it saw: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.file("a.cast")))
        let gif = try runReel(["record", tape, "-o", ws.file("a.gif")], directory: ws.path)
        #expect(gif.status != 0 && gif.stderr.contains("name the output with .cast"), "\(gif.stderr)")
        let overwrite = try runReel(["record", tape, "-o", tape], directory: ws.path)
        #expect(overwrite.status != 0)
        let missing = try runReel(["record", ws.file("t.tape"), "-o", ws.file("b.cast")], directory: "/")
        #expect(missing.status != 0 || FileManager.default.fileExists(atPath: ws.file("b.cast")))
        let noShell = ws.write("n.tape", "set shell /no/such/shell\nenter\n")
        let n = try runReel(["record", noShell, "-o", ws.file("n.cast")], directory: ws.path)
        #expect(n.status != 0 && n.stderr.contains("/no/such/shell cannot be started"), "\(n.stderr)")
    }
}
