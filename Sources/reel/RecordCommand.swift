/// `reel record`: a tape run against a real shell in a pseudo-terminal, written as an asciicast whose
/// times come from the tape.
import ArgumentParser
import Foundation
import Reel

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a tape (typing, keys and waits) in a shell and write the session as an asciicast.",
        discussion: """
            It runs the commands the tape types, as you would by hand: record only tapes you trust. The \
            shell (bash without profile or rc files, unless the tape sets another) starts in the current \
            folder with a fixed environment (TERM=xterm-256color, LANG=C.UTF-8, PS1="$ ", PATH, HOME) and \
            the tape's `set env`. Every event's time comes from the tape, not from the clock, so the same \
            tape gives the same file when the commands print the same. A tape's lines: type "text" \
            [seconds per character]; enter, tab, backspace, escape, space, up, down, left, right [count]; \
            key NAME (ctrl+c, alt+x…); sleep SECONDS; wait-for "regex" [timeout seconds, 10 unless given]; \
            set columns|rows|typingSpeed|shell|env VALUE; # comments.
            """)

    @Argument(help: ArgumentHelp("The tape to run.", valueName: "tape"))
    var tape: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The asciicast file to write (.cast).", valueName: "file"))
    var output: String

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        Interrupts.install()
        let recording = try Reel.record(tape: tape, to: output, cancellation: Interrupts.cancellation)
        if !quiet {
            Console.say(.note("\(output): \(recording.events.count) events over \(String(format: "%.2f", recording.length)) s"))
        }
    }
}
