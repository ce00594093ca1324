/// A one-time gate between the stages of a frame: workers wait at it until the worker finishing the
/// stage's last piece of work opens it, yielding their cores briefly before they sleep.
import Foundation
import Synchronization

/// Opened once; `wait` returns once it is open.
///
/// Workers wait only for work another worker has already taken (the opener is running), never for a
/// worker to arrive: `concurrentPerform` does not promise to run its iterations at the same time (with
/// more of them than cores, or its threads busy, it runs some after others end), so a barrier waiting
/// for every iteration could wait forever.
///
/// A waiting worker first yields its core in a loop (`sched_yield`) instead of sleeping at once: on this
/// project's 2-core machines a sleeping worker took ~45 µs to wake (a second worker started ~45 µs after
/// the first, measured), while most waits here are shorter. Yielding, not spinning, so that where there
/// are more threads than cores (`reel render` draws two frames at once, each with a rasterizer's
/// threads, beside the encoder) the worker being waited for, or any other thread, gets the core. Past
/// `yieldLimit` it sleeps on a condition, so a long wait costs nothing.
final class Latch: @unchecked Sendable {
    private let isOpen = Atomic<Bool>(false)
    private let condition = NSCondition()
    /// Nanoseconds a worker yields before it sleeps: a few wake-ups' worth.
    static let yieldLimit: UInt64 = 250_000

    func open() {
        condition.lock()
        isOpen.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        guard !isOpen.load(ordering: .acquiring) else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        while !isOpen.load(ordering: .acquiring) {
            if DispatchTime.now().uptimeNanoseconds &- start > Self.yieldLimit {
                condition.lock()
                while !isOpen.load(ordering: .acquiring) { condition.wait() }
                condition.unlock()
                return
            }
            sched_yield()
        }
    }
}
