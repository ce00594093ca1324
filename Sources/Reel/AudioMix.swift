/// The clip's sound: the scene's `audio` files and the video layers' own sound, each where the timeline
/// (or its layer's time) puts it, with its gain and fades, summed sample by sample at 48 kHz stereo.
import Foundation
import ReelMedia
import ReelScene

/// Mixes a clip's sound, sample-exact: sample n is at clip time n / 48000. Each input is read forward as
/// the render goes (a decoder of its own), so a render's sound costs one pass over each file.
final class AudioMix {
    /// Where an input is heard: its file time at clip time t (nil: silent then), and its gain.
    private struct Input {
        let name: String
        let file: String
        var source: AudioSource?
        /// File times for samples `start..<start+count` (nil where silent) and their gains.
        let place: (_ start: Int, _ count: Int) -> [(time: Double, gain: Double)?]
    }

    private var inputs: [Input]
    static let rate = AudioSource.sampleRate
    /// Layer sound plays from a quarter to four times its speed (pitched like tape); beyond, it is silent.
    static let speedLimits = 0.25...4.0

    var isEmpty: Bool { inputs.isEmpty }

    init(scene: Scene) {
        let duration = scene.duration, speed = scene.speed
        var inputs: [Input] = []
        for clip in scene.audio {
            inputs.append(
                Input(name: clip.name, file: clip.file, source: nil) { start, count in
                    (0..<count).map { k in
                        let t = Double(start + k) / Double(Self.rate)
                        guard let f = clip.fileTime(atClipTime: t, speed: speed) else { return nil }
                        return (f, clip.gain(atClipTime: t, speed: speed, duration: duration))
                    }
                })
        }
        for (name, playback, _) in scene.videoLayerTimes(at: 0) where playback.audio {
            guard let model = scene.layers.lazy.compactMap({ $0.find(name) }).first else { continue }
            inputs.append(
                Input(name: playback.name, file: playback.file, source: nil) { start, count in
                    Self.layerPlacement(scene: scene, layer: model, playback: playback, start: start, count: count)
                })
        }
        self.inputs = inputs
    }

    /// A video layer's sound follows the layer's own time: within a block its time is taken at the ends
    /// and between them on the line they give (exact for every timing but a repeat's wrap, which is
    /// taken sample by sample); silent outside the range played and outside the speed limits.
    static func layerPlacement(scene: Scene, layer: Layer, playback: VideoPlayback, start: Int, count: Int)
        -> [(time: Double, gain: Double)?]
    {
        func layerTime(_ n: Int) -> Double? {
            scene.videoLayerTimes(at: Double(n) / Double(rate)).first { $0.name == layer.name }?.time
        }
        guard let t0 = layerTime(start), let t1 = layerTime(start + count), let tm = layerTime(start + count / 2) else {
            return Array(repeating: nil, count: count)
        }
        let block = Double(count) / Double(rate)
        let linear = abs(tm - (t0 + t1) / 2) < 1e-6
        let speed = (t1 - t0) / block
        // The volume (animatable) at the block's ends, on the line between them within it.
        let v0 = layer.presentedVolume(atLayerTime: t0), v1 = layer.presentedVolume(atLayerTime: t1)
        return (0..<count).map { k in
            let lt: Double
            var local = speed
            if linear {
                lt = t0 + (t1 - t0) * Double(k) / Double(count)
            } else {
                guard let a = layerTime(start + k), let b = layerTime(start + k + 1) else { return nil }
                lt = a
                local = (b - a) * Double(rate)
            }
            guard speedLimits.contains(local), lt >= 0, lt < playback.length else { return nil }
            return (playback.from + lt, v0 + (v1 - v0) * Double(k) / Double(count))
        }
    }

    /// `count` stereo samples of the mix from clip sample `start`, interleaved, clamped to ±1.
    func samples(from start: Int, count: Int) throws(ReelError) -> [Float] {
        var mix = [Float](repeating: 0, count: count * 2)
        for i in inputs.indices {
            let places = inputs[i].place(start, count)
            let heard = places.compactMap { $0 }
            guard !heard.isEmpty else { continue }
            let positions = heard.map { $0.time * Double(Self.rate) }
            let first = Int(positions.min()!.rounded(.down))
            let last = Int(positions.max()!.rounded(.up)) + 1
            guard last - first < 64 * count else { continue }  // a jump within one block: nothing sensible to play
            let window: [Float]
            do throws(MediaError) {
                if inputs[i].source == nil { inputs[i].source = try AudioSource(path: inputs[i].file) }
                window = try inputs[i].source!.read(from: first, count: last - first + 1)
            } catch {
                throw .usage(
                    "\(inputs[i].name): the sound at \(String(format: "%.3f", heard[0].time)) s cannot be decoded: \(error.message)",
                    fix: "re-encode it (ffmpeg -i \(inputs[i].name) fixed.m4a) and play that")
            }
            for k in 0..<count {
                guard let place = places[k] else { continue }
                let p = place.time * Double(Self.rate) - Double(first)
                // On a sample (a sound at its own speed, placed on the 48 kHz grid) it is that sample;
                // between two, the line between them.
                let j = Int(p.rounded(.down)), frac = Float(p - Double(j))
                guard j >= 0, j + 1 < window.count / 2 + 1 else { continue }
                let g = Float(place.gain)
                for c in 0..<2 {
                    let a = window[2 * j + c]
                    let b = 2 * (j + 1) + c < window.count ? window[2 * (j + 1) + c] : a
                    mix[2 * k + c] += g * (frac < 1e-4 ? a : a + (b - a) * frac)
                }
            }
        }
        for i in mix.indices { mix[i] = min(1, max(-1, mix[i])) }
        return mix
    }
}

extension AudioMix {
    /// The clip's sample index at the start of frame `index`: exact for any frame rate (29.97 fps
    /// frames are 1601.6 samples long; the sound never drifts from the picture).
    static func sample(atFrame index: Int, rate: FrameRate) -> Int {
        index * Self.rate * rate.denominator / rate.numerator
    }
}

extension Reel {
    /// The clip's sound for an output, with the writer's sound track set in `settings`; nil when there
    /// is none to write: no sound in the scene, `--no-audio`, or a format without sound (said in a note).
    static func soundTrack(
        for clip: Clip, container: VideoContainer, output: String, options: RenderOptions, into settings: inout VideoSettings,
        note: (Message) -> Void
    ) throws(ReelError) -> AudioMix? {
        guard options.audio else { return nil }
        let mix = AudioMix(scene: clip.scene)
        guard !mix.isEmpty else { return nil }
        guard let codec = AudioSettings.codec(for: container) else {
            note("\(output): .\(container.rawValue) has no sound; the scene's sound is left out")
            return nil
        }
        if options.segment != nil {
            note(
                "\(output): segments (\(Setting.frames), \(Setting.shard)) are rendered without sound; reel concat --sound-from SCENE adds it to the joined clip, mixed once for the whole clip"
            )
            return nil
        }
        var sound = AudioSettings(codec: codec)
        sound.firstSample = AudioMix.sample(atFrame: settings.firstFrame, rate: clip.scene.fps)
        settings.audio = sound
        return mix
    }
}
