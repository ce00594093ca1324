/// The bytes an encoder may read past a picture's width are zero, never the allocator's leftovers
/// (issue #15: swift-star's 400-pixel-wide MP4 came out three ways over ten renders).
import CFFmpeg
import Testing

@testable import ReelMedia

@Suite struct FramePaddingTests {
    /// Every byte of every buffer of the frame, padding included.
    private func bytes(of frame: FrameHandle) -> [UInt8] {
        var all: [UInt8] = []
        withUnsafeBytes(of: frame.pointer.pointee.buf) { refs in
            for ref in refs.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self) {
                guard let ref, let data = ref.pointee.data else { continue }
                all += UnsafeBufferPointer(start: data, count: Int(ref.pointee.size))
            }
        }
        return all
    }

    private func scribble(on frame: FrameHandle) {
        withUnsafeBytes(of: frame.pointer.pointee.buf) { refs in
            for ref in refs.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self) {
                guard let ref, let data = ref.pointee.data else { continue }
                data.initialize(repeating: 0xA5, count: Int(ref.pointee.size))
            }
        }
    }

    /// 400 pixels: a multiple of 16 but not of 32, the width at which x264's plane copy reads past the
    /// row. Freed frames scribbled on first, so that a fresh allocation likely gets dirty memory.
    @Test func newFramesAreZeroedPaddingIncluded() throws {
        for _ in 0..<8 {
            let dirty = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: 400, height: 400)
            scribble(on: dirty)
        }
        let frame = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: 400, height: 400)
        #expect(frame.pointer.pointee.linesize.0 > 400, "no padding to check: linesize \(frame.pointer.pointee.linesize.0)")
        #expect(bytes(of: frame).allSatisfy { $0 == 0 })
    }

    /// When the encoder still holds a reference to the frame's buffers, making it writable allocates new
    /// ones: those are zeroed too.
    @Test func reallocatedFramesAreZeroed() throws {
        let frame = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: 400, height: 400)
        scribble(on: frame)
        var held: UnsafeMutablePointer<AVFrame>? = av_frame_clone(frame.pointer)
        defer { av_frame_free(&held) }
        let before = frame.pointer.pointee.buf.0
        try frame.makeWritable()
        #expect(frame.pointer.pointee.buf.0 != before)
        #expect(bytes(of: frame).allSatisfy { $0 == 0 })
    }
}
