// Everything the command says on stderr, in one place: lines for people, or with `--progress json` one
// JSON object a line for scripts (README, "Machine-readable output").
import Foundation
import ReelDocument
import Synchronization

/// One thing the command says on stderr.
enum Event {
    /// How the output differs from what the scene asked for (a GIF's frame rate, a matte…).
    case note(String)
    /// Something that did not stop the command but may not be what was meant.
    case warning(String)
    /// Why the command stops, and the exit status it stops with: its last word.
    case error(String, exit: Int32)
    /// One output of a batch failed; the batch goes on.
    case failed(output: String, message: String)
    /// A line of progress: the bar's text (redrawn in place on a terminal), or the JSON object's fields.
    case progress(bar: String, fields: [(String, JSONValue)])
    /// The bar is finished with: end its line (or wipe it, `clear`).
    case endBar(clear: Bool)
    /// `--stats`: the peak resident memory and the time taken.
    case stats(peakKiB: Int, seconds: Double)
    /// The result: a sentence for people, fields for scripts.
    case done(text: String, fields: [(String, JSONValue)])
}

/// A JSON value written with its keys in the order given (the event kind first, for people reading
/// the lines too).
enum JSONValue {
    case string(String)
    case int(Int)
    /// A number written with two decimals, as the progress lines always were.
    case fixed(Double)
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        switch self {
        case .string(let s): return JSONParser.quoted(s)
        case .int(let i): return String(i)
        case .fixed(let x): return x.isFinite ? String(format: "%.2f", x) : "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + fields.map { "\(JSONParser.quoted($0.0)): \($0.1.text)" }.joined(separator: ", ") + "}"
        }
    }
}

/// The one writer of stderr. In JSON mode it also takes over file descriptor 2, so that what the
/// libraries print there themselves (FFmpeg's log, an encoder's complaint) reaches a script as
/// `{"event": "log"}` lines instead of breaking the stream.
enum Console {
    private struct State {
        var json = false
        /// Where events go: 2, or in JSON mode a copy of the original stderr.
        var fd: Int32 = 2
        var capture: (reader: Int32, done: DispatchSemaphore)?
    }
    private static let state = Mutex(State())

    static var isJSON: Bool { state.withLock { $0.json } }

    /// Whether the command line asks `render` or `batch` for JSON: decided from the raw arguments, so
    /// that even a malformed command line is answered in JSON.
    static func wantsJSON(_ arguments: [String]) -> Bool {
        guard arguments.count > 1, ["render", "batch"].contains(arguments[1]) else { return false }
        let rest = Array(arguments.dropFirst(2))
        for (i, a) in rest.enumerated() {
            if a == "--" { return false }
            if a == "--progress=json" || (a == "--progress" && i + 1 < rest.count && rest[i + 1] == "json") { return true }
        }
        return false
    }

    /// JSON mode: events go to a copy of stderr, and descriptor 2 becomes a pipe whose lines are
    /// passed on as log events.
    static func startJSON() {
        var fds: [Int32] = [0, 0]
        let saved = dup(2)
        guard saved >= 0, pipe(&fds) == 0 else {
            state.withLock { $0.json = true }
            return
        }
        dup2(fds[1], 2)
        close(fds[1])
        let done = DispatchSemaphore(value: 0)
        state.withLock {
            $0 = State(json: true, fd: saved, capture: (fds[0], done))
        }
        let reader = fds[0]
        let thread = Thread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, 4096) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending += buffer[0..<n]
                while let newline = pending.firstIndex(of: 10) {
                    log(pending[..<newline])
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { log(pending[...]) }
            done.signal()
        }
        thread.start()
    }

    private static func log(_ bytes: ArraySlice<UInt8>) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return }
        write(JSONValue.object([("event", .string("log")), ("message", .string(line))]).text + "\n")
    }

    /// Says `event`: the one way the command writes to stderr.
    static func say(_ event: Event) {
        if isJSON {
            if let object = json(event) { write(object.text + "\n") }
        } else if let text = text(event) {
            write(text)
        }
    }

    /// Lets the lines captured from the libraries through before the process exits.
    static func finish() {
        let capture = state.withLock { s -> (reader: Int32, done: DispatchSemaphore)? in
            defer { s.capture = nil }
            return s.capture
        }
        guard let capture else { return }
        // Closing the pipe's only writer (descriptor 2) ends the reader at the pipe's end.
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 2)
            close(null)
        }
        _ = capture.done.wait(timeout: .now() + 2)
    }

    private static func write(_ text: String) {
        state.withLock { s in
            var data = Array(text.utf8)
            var offset = 0
            while offset < data.count {
                let n = data.withUnsafeMutableBytes { Glibc.write(s.fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
    }

    private static func json(_ event: Event) -> JSONValue? {
        func object(_ kind: String, _ fields: [(String, JSONValue)]) -> JSONValue {
            .object([("event", .string(kind))] + fields)
        }
        switch event {
        case .note(let m): return object("note", [("message", .string(m))])
        case .warning(let m): return object("warning", [("message", .string(m))])
        case .error(let m, let exit): return object("error", [("message", .string(m)), ("exit", .int(Int(exit)))])
        case .failed(let output, let m): return object("failed", [("output", .string(output)), ("message", .string(m))])
        case .progress(_, let fields): return object("progress", fields)
        case .endBar: return nil
        case .stats(let kib, let seconds):
            return object("stats", [("peakResidentKiB", .int(kib)), ("seconds", .fixed(seconds))])
        case .done(_, let fields): return object("done", fields)
        }
    }

    private static func text(_ event: Event) -> String? {
        switch event {
        case .note(let m): return "note: \(m)\n"
        case .warning(let m): return "warning: \(m)\n"
        case .error(let m, _): return "error: \(m)\n"
        case .failed(let output, let m): return "error: " + (m.hasPrefix(output) ? m : "\(output): \(m)") + "\n"
        case .progress(let bar, _): return bar
        case .endBar(let clear): return clear ? "\r\u{1B}[K" : "\n"
        case .stats(let kib, let seconds): return "peak resident memory: \(kib) KiB; \(String(format: "%.3f", seconds)) s\n"
        case .done(let text, _): return text + "\n"
        }
    }
}
