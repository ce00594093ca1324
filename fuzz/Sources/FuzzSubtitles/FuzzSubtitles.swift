// Fuzz target: subtitles (SRT, WebVTT) and word timestamps parsed as captions read them (scripts/fuzz.sh subtitles).
import FuzzSupport
import ReelDocument

/// A subtitle file (SRT or WebVTT) and a word-timestamp file, parsed as `captions: {file: …, words: …}`
/// parses them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let cues = try? Subtitles.parse(bytes, file: "fuzz.srt") {
        for cue in cues where !(cue.start.isFinite && cue.end > cue.start) {
            fatalError("a cue that does not end after it starts")
        }
        blackHole(cues)
    }
    if let words = try? WordTimings.parse(bytes, file: "fuzz.json") {
        for w in words where !(w.start.isFinite && w.end >= w.start) { fatalError("a word that ends before it starts") }
        blackHole(words)
    }
    return 0
}
