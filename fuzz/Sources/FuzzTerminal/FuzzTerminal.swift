// Fuzz target: terminal recordings (asciicast v2/v3) read and played through libvterm, and tapes parsed (scripts/fuzz.sh terminal).
import FuzzSupport
import ReelTerminal

/// An asciicast file read as a terminal layer reads it, then played to its end and to a time in the
/// middle (which plays it again from the start), each screen read back; and the same bytes parsed as a
/// `reel record` tape (nothing is run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let text = String(validating: bytes, as: UTF8.self), let tape = try? TapeScript.parse(text, file: "fuzz.tape") {
        guard tape.steps.count <= TapeScript.maximumSteps, tape.columns * tape.rows <= TerminalLimits.maximumCells else {
            fatalError("a tape past its limits")
        }
        blackHole(tape)
    }
    guard let recording = try? TerminalRecording.parse(bytes, file: "fuzz.cast") else { return 0 }
    for e in recording.events where !(e.time.isFinite && e.time >= 0) { fatalError("an event at \(e.time) s") }
    let player = TerminalPlayer(recording: recording, idleTimeLimit: 1)
    for t in [player.length, player.length / 2] {
        let screen = player.screen(at: t)
        guard screen.lines.count == screen.rows, screen.lines.allSatisfy({ $0.cells.count == screen.columns }) else {
            fatalError("a screen whose lines do not match its size")
        }
        if let c = screen.cursor, !(0..<screen.rows).contains(c.row) || !(0..<screen.columns).contains(c.column) {
            fatalError("a cursor off the screen")
        }
        blackHole(screen.text)
    }
    return 0
}
