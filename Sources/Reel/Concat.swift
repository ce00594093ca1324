/// Segments rendered apart (`--frames`, `--shard`) joined into one clip without re-encoding: MP4, MOV,
/// WebM, GIF and PNG sequences.
import Foundation
import ReelMedia

/// What a join wrote.
public struct ConcatSummary: Sendable {
    public var output: String
    public var frames: Int
    public var segments: Int
    public var bytes: Int
}

extension Reel {
    /// Joins segments rendered with `RenderOptions.segment` (`reel render --frames` / `--shard`) into one
    /// clip without re-encoding. The segments may be given in any order: each says which frames it
    /// holds, and together they must hold every frame of the clip exactly once, encoded alike.
    ///
    /// - MP4, MOV, WebM: the packets are copied with their timestamps (each segment begins with a key
    ///   frame), so the result decodes to the frames a single render decodes to, except that each
    ///   segment's first frame is a key frame where a single render may have predicted it.
    /// - GIF: the frames are copied in order; every segment of a clip shares the clip's palette (built
    ///   from the whole clip), so the joined GIF decodes to exactly the single render's frames.
    /// - PNG sequences (folders): the frame files, already numbered for the whole clip, are gathered
    ///   into one folder (hard links where possible, else copies).
    ///
    /// With `sound`, the clip the segments were rendered from (segments are rendered silent), the joined
    /// MP4, MOV or WebM gets that clip's sound, mixed and encoded once for the whole clip (AAC, Opus), so
    /// that it is continuous and in sync across the joins.
    @discardableResult
    public static func concat(
        _ inputs: [String], to output: String, sound: Clip? = nil, cancellation: Cancellation = Cancellation()
    ) throws(ReelError) -> ConcatSummary {
        guard !inputs.isEmpty else { throw .usage("no segments to join", fix: "give the segment files, e.g. seg-*.mp4") }
        let container = try Self.container(for: output)
        var seen = Set<String>()
        for input in inputs {
            let key = URL(fileURLWithPath: input).standardizedFileURL.path
            guard seen.insert(key).inserted else {
                throw .usage("\(input) is given twice", fix: "give each segment once")
            }
            if key == URL(fileURLWithPath: output).standardizedFileURL.path {
                throw .usage("\(output) is one of the segments", fix: "write the joined clip to another name")
            }
        }
        // The sound's files too (`--sound-from` a scene whose audio is the output's name).
        try checkNotAnInput(output, inputs: inputs + (sound.map { $0.scene.importedFiles.values.sorted() } ?? []))
        if container == .png { return try concatSequences(inputs, to: output, cancellation: cancellation) }
        guard [.mp4, .mov, .webm, .gif].contains(container) else {
            throw .usage(
                "\(output): .\(container.rawValue) segments cannot be joined without re-encoding",
                fix: "render the segments as PNG sequences (-o frames/), join those, then encode the folder's frames")
        }
        var segments: [SegmentFile] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw .usage("\(input): no such segment file", fix: "check the path")
            }
            guard !isDirectory.boolValue else {
                throw .usage("\(input) is a folder", fix: "join folders of PNG frames into a folder: -o joined/")
            }
            guard VideoContainer(pathExtension: URL(fileURLWithPath: input).pathExtension) == container else {
                throw .usage(
                    "\(input) is not a .\(container.rawValue) file like the output",
                    fix: "join segments into a file of their own format (segments are never re-encoded)")
            }
            do {
                segments.append(SegmentFile(path: input, info: try SegmentJoiner.info(ofFileAt: input)))
            } catch {
                throw .usage("\(error)", fix: nil)
            }
        }
        let ordered = try checkCoverage(segments.map { ($0.path, $0.info) })
        let sorted = ordered.map { i in segments[i] }
        let track = try soundTrack(from: sound, for: container, segments: sorted, output: output)
        try checkWritableDestination(output)
        let file = OutputFile(target: output)
        let frames = try file.complete(output: output, cancellation: cancellation) {
            do {
                return try SegmentJoiner.join(sorted, to: file.temporary, muxer: container.muxerName, sound: track)
            } catch {
                throw ReelError.usage("\(error)", fix: nil)
            }
        }
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: file.target))?[.size] as? Int) ?? 0
        return ConcatSummary(output: file.target, frames: frames, segments: sorted.count, bytes: bytes)
    }

    /// The joined clip's sound, from the clip the segments were rendered from; nil without one, or when
    /// it has none. The clip must have the segments' frames (same frame rate and length).
    static func soundTrack(from clip: Clip?, for container: VideoContainer, segments: [SegmentFile], output: String)
        throws(ReelError) -> SegmentJoiner.SoundTrack?
    {
        guard let clip else { return nil }
        guard let codec = AudioSettings.codec(for: container) else {
            throw .usage("\(output): .\(container.rawValue) has no sound", fix: "join MP4, MOV or WebM segments for sound")
        }
        let total = segments[0].info.total, rate = clip.scene.fps
        guard clip.scene.frameCount == total else {
            throw .usage(
                "the scene has \(clip.scene.frameCount) frames, the segments \(total): it is not the clip they were rendered from",
                fix: "give the scene the segments were rendered from, with the same frame rate and duration")
        }
        let mix = AudioMix(scene: clip.scene)
        guard !mix.isEmpty else { return nil }
        return SegmentJoiner.SoundTrack(
            settings: AudioSettings(codec: codec), sample: { AudioMix.sample(atFrame: $0, rate: rate) },
            samples: { (start, count) throws(MediaError) -> [Float] in
                do {
                    return try mix.samples(from: start, count: count)
                } catch {
                    throw MediaError(call: "the sound", message: "\(error)")
                }
            })
    }

    /// Orders segments by their first frame and checks that they hold frames 0…total−1 exactly once;
    /// returns the indices in order.
    static func checkCoverage(_ segments: [(path: String, info: SegmentInfo)]) throws(ReelError) -> [Int] {
        let order = segments.indices.sorted { segments[$0].info.first < segments[$1].info.first }
        let total = segments[order[0]].info.total
        for i in order where segments[i].info.total != total {
            throw .usage(
                "\(segments[i].path) is a segment of a clip of \(segments[i].info.total) frames, \(segments[order[0]].path) of one of \(total)",
                fix: "join the segments of one render (same scene and options)")
        }
        var next = 0
        var previous: String?
        for i in order {
            let s = segments[i]
            if s.info.first > next {
                throw .usage(
                    "no segment holds frames \(next)-\(s.info.first - 1) of \(total)",
                    fix: "render them (render with \(Setting.frames, "\(next)-\(s.info.first - 1)")) or add the missing segment")
            }
            if s.info.first < next {
                throw .usage(
                    "\(s.path) (frames \(s.info.first)-\(s.info.last)) overlaps \(previous ?? "another segment") at frame \(s.info.first)",
                    fix: "give each frame's segment once: shards of one split (\(Setting.shard, "I/N") with the same N)")
            }
            next = s.info.last + 1
            previous = s.path
        }
        if next < total {
            throw .usage(
                "no segment holds frames \(next)-\(total - 1) of \(total) (the clip's end)",
                fix: "render them (render with \(Setting.frames, "\(next)-\(total - 1)")) or add the missing segment")
        }
        return order
    }

    /// PNG sequence folders: frame_N.png files numbered for the whole clip.
    static func concatSequences(
        _ inputs: [String], to output: String, cancellation: Cancellation
    ) throws(ReelError) -> ConcatSummary {
        var segments: [(path: String, info: SegmentInfo)] = []
        var files: [[String]] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .usage("\(input) is not a folder of PNG frames", fix: "a PNG sequence joins folders rendered with -o name/")
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []).sorted()
            var numbers: [Int] = []
            for name in names {
                guard name.hasPrefix("frame_"), name.hasSuffix(".png"), let n = Int(name.dropFirst(6).dropLast(4)) else {
                    throw .usage("\(input) holds \(name), not only PNG frames", fix: "join folders written by reel render")
                }
                numbers.append(n)
            }
            numbers.sort()
            guard let first = numbers.first, let last = numbers.last else {
                throw .usage("\(input) holds no frames", fix: "render the segment again")
            }
            guard last - first + 1 == numbers.count else {
                throw .usage("\(input) misses frames between \(first) and \(last)", fix: "render the segment again")
            }
            // A folder has no comment: its frames' numbers say where it sits, and the clip ends at the last.
            segments.append((input, SegmentInfo(first: first, last: last, total: Int.max)))
            files.append(names)
        }
        let total = (segments.map(\.info.last).max() ?? 0) + 1
        for i in segments.indices { segments[i].info.total = total }
        let order = try checkCoverage(segments)
        try checkSequenceDestination(output)
        let file = OutputFile(target: output, isDirectory: true)
        try file.complete(output: output, cancellation: cancellation) {
            try FileManager.default.createDirectory(atPath: file.temporary, withIntermediateDirectories: false)
            for i in order {
                for name in files[i] {
                    try cancellation.check()
                    let from = segments[i].path + "/" + name, to = file.temporary + "/" + name
                    if link(from, to) != 0 { try FileManager.default.copyItem(atPath: from, toPath: to) }
                }
            }
        }
        return ConcatSummary(output: file.target, frames: total, segments: inputs.count, bytes: 0)
    }
}
