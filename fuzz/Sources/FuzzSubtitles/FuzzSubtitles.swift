import FuzzSupport
import ReelDocument

/// A subtitle file (SRT or WebVTT), parsed as `captions: {file: …}` parses it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let cues = try? Subtitles.parse(bytes, file: "fuzz.srt") {
        for cue in cues where !(cue.start.isFinite && cue.end > cue.start) {
            fatalError("a cue that does not end after it starts")
        }
        blackHole(cues)
    }
    return 0
}
