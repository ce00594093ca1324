/// `reel record` in the library: a tape run in a shell and the recording written as an asciicast,
/// under a temporary name and renamed into place when complete.
import Foundation
import ReelTerminal

extension Reel {
    /// Runs the tape at `path` (its commands in a real shell: only tapes you trust) and writes the
    /// recording to `output` (.cast). Returns the recording.
    @discardableResult
    public static func record(tape path: String, to output: String, cancellation: Cancellation = Cancellation())
        throws(ReelError) -> TerminalRecording
    {
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "cast" else {
            throw .usage("\(output): a recording is written as an asciicast", fix: "name the output with .cast")
        }
        let tape: TapeScript
        do {
            tape = try TapeScript.read(contentsOf: path)
        } catch {
            throw .scene(error)
        }
        try checkNotAnInput(output, inputs: [path])
        try checkWritableDestination(output)
        let recording: TerminalRecording
        do {
            var recorder = TapeRecorder(tape: tape, file: path)
            recorder.shouldStop = { cancellation.reason != nil }
            recording = try recorder.record()
        } catch {
            // Stopped by a signal: the command line's exit status, not a tape error.
            try cancellation.check()
            throw .scene(error)
        }
        let bytes = recording.asciicast(environment: ["SHELL": tape.shell.first ?? "", "TERM": "xterm-256color"])
        let file = OutputFile(target: output)
        try file.complete(output: output, cancellation: cancellation) {
            guard FileManager.default.createFile(atPath: file.temporary, contents: Data(bytes)) else {
                throw ReelError.usage("\(output): cannot be written", fix: "check the folder's permissions")
            }
        }
        return recording
    }
}
