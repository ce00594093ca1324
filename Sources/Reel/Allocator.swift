/// Heap tuning for frame-sized buffers (glibc's mmap and trim thresholds), for the command line to ask
/// for before rendering.
import ReelMedia

extension Reel {
    /// Keeps freed frame-sized blocks in the heap instead of returning them to the kernel. Encoders
    /// allocate a new picture buffer for most frames (x264 keeps references to recent ones), and with
    /// glibc's defaults each of those megabytes comes back from the kernel freshly zeroed: at 1080p that
    /// page clearing was over a quarter of the profile. Raising the mmap and trim thresholds (and a top
    /// pad) lets the buffers recycle; the command-line tool calls this before rendering. Process-wide,
    /// idempotent.
    public static func tuneAllocatorForFrames() {
        MediaMemory.tuneForFrames()
    }
}
