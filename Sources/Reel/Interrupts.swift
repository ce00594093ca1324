import Dispatch
import Foundation
import Synchronization

/// Ctrl-C and SIGTERM: the render loop sees the request between frames, removes its temporary file and
/// exits non-zero. If it has not done so within `grace` (a long encoder flush, say), the handler
/// removes every temporary output itself and exits.
public enum Interrupts {
    static let requested = Atomic<Int32>(0)
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    public static let grace: Double = 0.8

    /// The signal that asked us to stop, or nil.
    public static var pendingSignal: Int32? {
        let s = requested.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    /// Installs the handlers (once, from the main thread, before rendering). `lastWords` says why the
    /// process exits when it has to exit by itself (the command line's JSON mode words it as JSON).
    public static func install(
        lastWords: @escaping @Sendable (Int32) -> Void = { _ in
            FileHandle.standardError.write(Data("reel: interrupted\n".utf8))
        }
    ) {
        guard sources.isEmpty else { return }
        let queue = DispatchQueue(label: "reel.signals")
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                requested.store(sig, ordering: .relaxed)
                queue.asyncAfter(deadline: .now() + grace) {
                    TemporaryFiles.shared.removeAllForExit()
                    lastWords(sig)
                    _exit(128 + sig)
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}
