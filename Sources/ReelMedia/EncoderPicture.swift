/// A picture already in the encoder's own format (8-bit Y′CbCr 4:2:0, BT.709, limited range), made from
/// a decoded video frame without going through RGBA, and the pool such pictures are made in.
internal import CFFmpeg

/// One frame for a `VideoWriter` whose encoder takes 8-bit Y′CbCr 4:2:0 (`takesEncoderPictures`): a
/// decoded video frame converted straight to it, for frames that show nothing but that video, pixel for
/// pixel. Not changed once made, so it may be handed between threads and read by several.
public final class EncoderPicture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    let frame: FrameHandle

    init(width: Int, height: Int) throws(MediaError) {
        self.width = width
        self.height = height
        frame = try FrameHandle(format: AV_PIX_FMT_YUV420P, width: Int32(width), height: Int32(height))
    }
}

/// Encoder pictures of one size, reused once nobody holds them any more: a clip played through keeps
/// as many as are in flight between its decoder and the encoder, not one a frame.
final class EncoderPicturePool {
    private var pictures: [EncoderPicture] = []
    /// More than this in flight is a caller keeping pictures; those beyond it are made and let go.
    private static let most = 32

    /// A picture of this size that nobody else holds (its pixels are stale), made if none is free.
    func take(width: Int, height: Int) throws(MediaError) -> EncoderPicture {
        for i in pictures.indices where pictures[i].width == width && pictures[i].height == height {
            // Held by nobody but the pool, and no encoder keeps a reference to its planes (av_frame_ref).
            if isKnownUniquelyReferenced(&pictures[i]), av_frame_is_writable(pictures[i].frame.pointer) != 0 {
                return pictures[i]
            }
        }
        let picture = try EncoderPicture(width: width, height: height)
        if pictures.count < Self.most { pictures.append(picture) }
        return picture
    }
}
