// `reel concat`: segments joined into one clip without re-encoding.
import ArgumentParser
import Foundation
import Reel

struct Concat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join segments (reel render --frames / --shard) into one clip without re-encoding.",
        discussion: """
            The segments may be given in any order (a glob such as seg-*.mp4 is fine): each file says which \
            frames of the clip it holds, and together they must hold every frame once, encoded with the \
            same settings. MP4, MOV and WebM packets are copied with their timestamps; GIF frames are \
            copied in order (the shards of a GIF share the whole clip's palette); PNG sequence folders are \
            gathered into one folder (-o joined/). Anything that does not fit is refused before writing. \
            Segments are rendered silent: --sound-from adds the scene's sound, mixed once for the whole clip.

            Example:
              for i in 0 1 2 3; do reel render scene.yaml --shard $i/4 -o seg-$i.mp4 & done; wait
              reel concat seg-*.mp4 -o clip.mp4 --sound-from scene.yaml
            """
    )

    @Argument(help: ArgumentHelp("The segment files (or PNG sequence folders).", valueName: "segments"))
    var segments: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The joined clip (same format as the segments).", valueName: "file"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "The scene the segments were rendered from: its sound (segments are silent) is mixed once and added to the joined MP4, MOV or WebM.",
            valueName: "scene"))
    var soundFrom: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        Interrupts.install()
        if let soundFrom { try Reel.checkNotAnInput(output, inputs: [soundFrom]) }
        let sound = try soundFrom.map { try Reel.load($0) }
        let summary = try Reel.concat(segments, to: output, sound: sound, cancellation: Interrupts.cancellation)
        if !quiet {
            Console.say(
                .done(
                    text: "joined \(summary.segments) segments into \(summary.output): \(summary.frames) frames",
                    fields: [("output", .string(summary.output)), ("frames", .int(summary.frames))]))
        }
    }
}
