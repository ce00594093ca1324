/// How a crash reports itself: Swift's backtracer, set never to wait for a person, so that a crash in
/// `reel … 2>&1 | cat` or under a batch service ends the process instead of holding the pipe open.
import Foundation

enum CrashReports {
    /// The backtracer reads its settings from the environment when the process starts, so the first
    /// run without them starts the program again with them (once: the second run finds them set).
    /// Not interactive, the crashed thread only, fast symbols, a short limit: a report in well under a
    /// second instead of a debugger prompt or minutes of symbolication.
    static let settings = "enable=yes,interactive=no,threads=crashed,symbolicate=fast,limit=32,timeout=0s,color=no"

    static func ensureNonInteractive() {
        guard ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil else { return }
        setenv("SWIFT_BACKTRACE", settings, 1)
        // The binary's own path, not /proc/self/exe, so the process keeps its name ("reel" for ps,
        // pkill and killall). If the exec fails the program simply goes on with the defaults.
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return }
        execv(path, CommandLine.unsafeArgv)
    }
}
