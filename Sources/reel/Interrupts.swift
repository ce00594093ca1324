// Ctrl-C and SIGTERM for the command: they cancel the one token every render of this process polls.
import Dispatch
import Foundation
import Reel

/// The render loop sees the cancellation between frames, removes its temporary file and exits
/// non-zero. If it has not done so within `grace` (a long encoder flush, say), the handler removes every
/// temporary output itself and exits.
enum Interrupts {
    /// Handed to every render, sheet, still, concat and batch the command starts.
    static let cancellation = Cancellation()
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    static let grace: Double = 0.8

    /// The signal that asked us to stop, or nil.
    static var pendingSignal: Int32? {
        if case .signal(let s) = cancellation.reason { return s }
        return nil
    }

    /// Installs the handlers (once, from the main thread, before rendering). `lastWords` says why the
    /// process exits when it has to exit by itself (the command line's JSON mode words it as JSON).
    /// When `idle` says nothing is being written (a preview between exports), the process exits at once.
    static func install(
        lastWords: @escaping @Sendable (Int32) -> Void = { _ in
            FileHandle.standardError.write(Data("reel: interrupted\n".utf8))
        },
        idle: @escaping @Sendable () -> Bool = { false }
    ) {
        guard sources.isEmpty else { return }
        let queue = DispatchQueue(label: "reel.signals")
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                cancellation.cancel(.signal(sig))
                if idle() { _exit(128 + sig) }
                queue.asyncAfter(deadline: .now() + grace) {
                    Reel.removeTemporaryOutputsForExit()
                    lastWords(sig)
                    _exit(128 + sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}
