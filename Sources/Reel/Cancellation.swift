/// A request to stop a render, shared between whoever asks (the command line's signal handler, a
/// batch stopping after a failure, an app's Cancel button) and the loops that poll it between frames.
import Synchronization

public final class Cancellation: Sendable {
    /// Why the work stops.
    public enum Reason: Sendable, Equatable {
        /// A signal (SIGINT, SIGTERM): the command line exits with 128 + the signal, as shells expect.
        case signal(Int32)
        /// Stopped by its caller, with why (a batch: "another job failed").
        case stopped(Message)
    }

    private let own = Mutex<Reason?>(nil)
    /// A batch's jobs stop when the batch is asked to, and the batch can stop its jobs alone.
    private let parent: Cancellation?

    public init(parent: Cancellation? = nil) { self.parent = parent }

    /// Asks the work to stop; the first reason given is the one reported.
    public func cancel(_ reason: Reason) {
        own.withLock { if $0 == nil { $0 = reason } }
    }

    /// Why the work was asked to stop, or nil. Once a frame: a lock taken without contention.
    public var reason: Reason? { own.withLock { $0 } ?? parent?.reason }

    /// Throws the error for the reason, if there is one.
    func check() throws(ReelError) {
        switch reason {
        case nil: return
        case .signal(let s): throw .cancelled(signal: s)
        case .stopped(let why): throw .stopped(reason: why)
        }
    }
}

extension Reel {
    /// Removes every temporary output still in flight, for a process about to exit without waiting for
    /// its renders to notice a cancellation (the command line's signal handler, after a grace period).
    /// Temporaries created after this are removed too until the process exits.
    public static func removeTemporaryOutputsForExit() { TemporaryFiles.shared.removeAllForExit() }
}
