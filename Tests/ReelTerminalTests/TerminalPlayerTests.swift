// A recording played to chosen times: which events are on screen, by hand.
import ReelTerminal
import Testing

@Suite struct TerminalPlayerTests {
    static let cast = """
        {"version": 2, "width": 10, "height": 2}
        [0.1, "o", "a"]
        [0.3, "o", "b"]
        [5.3, "o", "c"]
        """

    func player(idle: Double? = nil) throws -> TerminalPlayer {
        TerminalPlayer(recording: try TerminalRecording.parse(Array(Self.cast.utf8), file: "s.cast"), idleTimeLimit: idle)
    }

    @Test func anEventShowsFromItsOwnTime() throws {
        let p = try player()
        #expect(p.screen(at: 0).text == "\n")
        #expect(p.screen(at: 0.0999).text == "\n")
        // Exactly at its time (0.3 is 3 frames at 10 fps, 3.0 / 10 in floating point).
        #expect(p.screen(at: 0.1).text == "a\n")
        #expect(p.screen(at: 3.0 / 10).text == "ab\n")
        // 0.1 + 0.2 is 0.30000000000000004, past 0.3; 0.15 * 2 is the double nearest 0.3.
        #expect(p.screen(at: 0.15 * 2).text == "ab\n")
        #expect(p.screen(at: 5.2999).text == "ab\n")
        #expect(p.screen(at: 5.3).text == "abc\n")
        // An earlier time plays it again from the start.
        #expect(p.screen(at: 0.2).text == "a\n")
        #expect(p.length == 5.3)
    }

    /// With an idle limit of 1 s the 5 s pause lasts 1 s: "c" at 1.3.
    @Test func theIdleLimitMovesLaterEvents() throws {
        let p = try player(idle: 1)
        #expect(p.times == [0.1, 0.3, 1.3])
        #expect(p.screen(at: 1.2999).text == "ab\n")
        #expect(p.screen(at: 1.3).text == "abc\n")
    }

    @Test func aStillScreenIsTheSameScreen() throws {
        let p = try player()
        let a = p.screen(at: 1), b = p.screen(at: 2)
        #expect(a == b)
    }
}
