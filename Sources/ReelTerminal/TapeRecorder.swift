/// `reel record`: a tape's steps run against a real shell in a pseudo-terminal, its output stamped with
/// the tape's own clock (each step's time follows from the steps before it, never from the wall clock),
/// so the same tape gives the same recording when the commands print the same.
import Foundation
import ReelDocument

/// Runs a tape. Each step is done, then the output it brings is read until the terminal has been
/// quiet for `settle` seconds, and stamped with the step's time on the tape's clock:
/// - `type`: each character at its own time, `perCharacter` seconds apart;
/// - a key: at its time, then one typing interval passes;
/// - `sleep`: its output at the sleep's start, then the clock moves on by its length;
/// - `wait-for`: output is read until the pattern matches (escape sequences left out) what came since the
///   last wait, stamped at the wait's time; it takes no time on the clock.
public struct TapeRecorder {
    public var tape: TapeScript
    /// The tape file, for errors.
    public var file: String
    /// Quiet time that ends a step's output (wall clock; the recording's times do not depend on it).
    public var settle = 0.2
    /// Asked between steps and while output is read: true ends the recording with an error (Ctrl-C).
    public var shouldStop: @Sendable () -> Bool = { false }

    public init(tape: TapeScript, file: String) {
        self.tape = tape
        self.file = file
    }

    /// The environment the shell starts with: fixed, so that a recording does not depend on who makes
    /// it, and the tape's `set env` over it.
    public var environment: [String: String] {
        var env = [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "PS1": "$ ", "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/",
        ]
        for (k, v) in tape.environment { env[k] = v }
        return env
    }

    public func record() throws(DocumentError) -> TerminalRecording {
        var recording = TerminalRecording(version: 2, columns: tape.columns, rows: tape.rows)
        func fail(_ line: Int?, _ message: String, fix: String? = nil) -> DocumentError {
            DocumentError(file: file, location: line.map { SourceLocation(line: $0, column: 1) }, message: message, fix: fix)
        }
        let shell: PseudoTerminal
        do {
            shell = try PseudoTerminal(command: tape.shell, environment: environment, columns: tape.columns, rows: tape.rows)
        } catch {
            throw fail(nil, error.message, fix: "set shell to a program that exists, e.g. set shell /bin/sh")
        }
        defer { shell.hangUp() }
        var clock = 0.0
        var pending: [UInt8] = []
        var sinceWait: [UInt8] = []
        var shellExited = false
        /// Reads until `quiet` seconds pass with no output once some came (or `first` seconds with none at
        /// all), or `limit` seconds in all, or until `done` says so.
        func collect(quiet: Double, first: Double? = nil, limit: Double, until done: (() -> Bool)? = nil) throws(DocumentError)
            -> Bool
        {
            let start = Date()
            var last = Date()
            var any = false
            while !shellExited {
                if shouldStop() { throw fail(nil, "recording stopped", fix: nil) }
                let elapsed = Date().timeIntervalSince(start)
                if elapsed >= limit { return false }
                let window = any ? quiet : (first ?? quiet)
                let wait =
                    done == nil ? min(window - Date().timeIntervalSince(last), limit - elapsed) : min(0.05, limit - elapsed)
                if done == nil && wait <= 0 { return true }
                guard let bytes = shell.read(timeout: max(wait, 0)) else {
                    shellExited = true
                    break
                }
                if !bytes.isEmpty {
                    pending += bytes
                    sinceWait += bytes
                    last = Date()
                    any = true
                    guard recording.output.count + pending.count <= TerminalLimits.maximumRecordingBytes else {
                        throw fail(nil, "the session printed more than \(TerminalLimits.maximumRecordingBytes >> 20) MiB")
                    }
                }
                if let done, done() { return true }
            }
            return done == nil
        }
        func stamp(final: Bool = false) {
            // A character cut at the end of a read waits for its other bytes (at the end, it is what it is).
            let cut = final ? 0 : Self.incompleteSuffix(pending)
            let whole = Array(pending.dropLast(cut))
            guard !whole.isEmpty else { return }
            let text = String(decoding: whole, as: UTF8.self)
            let start = recording.output.count
            recording.output += Array(text.utf8)
            recording.events.append(TerminalEvent(time: clock, kind: .output(start..<recording.output.count)))
            pending = Array(pending.suffix(cut))
        }
        // The shell's first prompt.
        _ = try collect(quiet: 0.5, limit: 5)
        stamp()
        for (line, step) in tape.steps {
            func send(_ bytes: [UInt8]) throws(DocumentError) {
                do {
                    try shell.send(bytes)
                } catch {
                    throw fail(line, error.message)
                }
            }
            switch step {
            case .type(let text, let speed):
                for c in text {
                    try send(Array(String(c).utf8))
                    // A typed character's echo comes at once: its first byte is waited for, a short quiet ends it.
                    _ = try collect(quiet: settle / 4, first: settle * 5, limit: 5)
                    stamp()
                    clock += speed
                }
            case .key(_, let bytes):
                try send(bytes)
                _ = try collect(quiet: settle, first: settle * 5, limit: 10)
                stamp()
                clock += tape.typingSpeed
            case .sleep(let seconds):
                _ = try collect(quiet: settle, limit: max(seconds, settle))
                stamp()
                clock += seconds
            case .waitFor(let pattern, let timeout):
                let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
                func matches() -> Bool {
                    let text = Self.visibleText(sinceWait)
                    return regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                }
                if !matches() {
                    guard try collect(quiet: settle, limit: timeout, until: matches) else {
                        let tail = Self.visibleText(sinceWait).suffix(200)
                        throw fail(
                            line,
                            "wait-for \"\(pattern)\" timed out after \(TerminalRecording.time(timeout)) s\(shellExited ? " (the shell exited)" : ""); the output since the last wait ends: \"\(tail)\"",
                            fix: "check the command, or give a longer timeout: wait-for \"\(pattern)\" 30")
                    }
                }
                _ = try collect(quiet: settle, limit: 10)
                sinceWait = []
                stamp()
            }
            guard recording.events.count < TerminalLimits.maximumEvents else {
                throw fail(line, "more than \(TerminalLimits.maximumEvents) events")
            }
            // What reel reads back: a recording past 100 hours would be refused.
            guard clock <= TerminalLimits.maximumTime else {
                throw fail(line, "the tape's clock passes \(Int(TerminalLimits.maximumTime)) s (100 hours)", fix: "sleep less")
            }
        }
        _ = try collect(quiet: settle, limit: 2)
        stamp(final: true)
        // The tape's last sleep is part of the recording: an empty output event marks its end.
        if clock > recording.length {
            recording.events.append(TerminalEvent(time: clock, kind: .output(recording.output.count..<recording.output.count)))
        }
        return recording
    }

    /// Bytes at the end that begin a UTF-8 character whose other bytes have not come yet.
    static func incompleteSuffix(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let b = bytes[bytes.count - back]
            if b & 0xC0 == 0x80 { continue }
            let need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            return need > back ? back : 0
        }
        return 0
    }

    /// The text a pattern is matched against: escape sequences (CSI, OSC, single-character ones) and
    /// carriage returns left out.
    static func visibleText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.replacingOccurrences(
            of: "\u{1B}(\\[[0-?]*[ -/]*[@-~]|\\][^\u{07}\u{1B}]*(\u{07}|\u{1B}\\\\)|[@-Z\\\\-_])|\r", with: "",
            options: .regularExpression)
    }
}
