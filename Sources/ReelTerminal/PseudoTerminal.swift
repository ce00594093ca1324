/// A shell running in a pseudo-terminal: one owner of the controlling side's descriptor and the
/// child's process, which it ends when it goes.
internal import CPseudoTerminal
import Foundation

/// A program started in a new session on a pseudo-terminal of a given size: bytes written are what a
/// user types, bytes read what the program shows.
final class PseudoTerminal {
    private let descriptor: Int32
    private let pid: pid_t
    private var reaped = false
    private var closed = false

    struct Failure: Error { var message: String }

    init(command: [String], environment: [String: String], columns: Int, rows: Int) throws(Failure) {
        guard let program = command.first, !program.isEmpty else { throw Failure(message: "no shell to run") }
        var path = [CChar](repeating: 0, count: 256)
        let fd = reel_pty_open(
            UInt16(clamping: min(max(columns, 1), TerminalLimits.maximumColumns)),
            UInt16(clamping: min(max(rows, 1), TerminalLimits.maximumRows)), &path, path.count)
        guard fd >= 0 else { throw Failure(message: "no pseudo-terminal: \(String(cString: strerror(errno)))") }
        descriptor = fd
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let error = reel_pty_spawn(path, argv, envp, &child)
        guard error == 0 else {
            close(fd)
            throw Failure(message: "\(program) cannot be started: \(String(cString: strerror(error)))")
        }
        pid = child
    }

    deinit {
        hangUp()
    }

    /// Writes all of `bytes` (what a user types), waiting while the terminal's buffer is full.
    func send(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                var p = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 100)
            } else {
                throw Failure(message: "the shell stopped reading its terminal (it exited)")
            }
        }
    }

    /// What the program showed within `timeout` seconds: nil when it has closed its terminal (exited),
    /// empty when it showed nothing in time.
    func read(timeout: Double) -> [UInt8]? {
        var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        // At least a millisecond: a zero timeout would make the caller's loop spin.
        let ready = poll(&p, 1, Int32(max(1, min(timeout, 3600) * 1000)))
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer[0..<n]) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return [] }
        return nil
    }

    /// Ends the session as closing a terminal window does: the terminal closed (the kernel hangs up the
    /// session), a hangup to the shell's process group, and after a second a kill to it.
    func hangUp() {
        if !closed {
            close(descriptor)
            closed = true
        }
        guard !reaped else { return }
        kill(-pid, SIGHUP)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                kill(-pid, SIGKILL)
                return
            }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        reaped = true
    }
}
