/// Paced keyframes with `keyTimes` or `timingFunctions` (issue #45): accepted with one note, as Core
/// Animation ignores both in paced modes, while wrong counts stay errors in the modes that use them.
import ReelScene
import Testing

@Suite struct PacedKeyframeListTests {
    func scene(_ animations: String) throws(SceneError) -> Scene {
        try decode(
            #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": ["#
                + animations + "]}]}")
    }

    /// position.x through 0, 10, 40: paced key times are 0, 10/40, 1 (CORE-ANIMATION.md §4.3), so at
    /// t = 0.5 the value is a third of the way from 10 to 40, 20. The given keyTimes (0.9 for the middle
    /// value) would put it at 5.56, and the ease-in functions lower still.
    static let paced =
        #"{"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 40], "duration": 1, "calculationMode": "paced", "keyTimes": [0, 0.9, 1], "timingFunctions": ["easeIn", "easeIn"]}"#

    @Test func pacedModeAcceptsAndIgnoresKeyTimesAndTimingFunctions() throws {
        let s = try scene(Self.paced)
        #expect(abs(s.sample(at: 0.5).layers[0].position.x - 20) < 1e-9)
        #expect(s.importNotes.count == 2, "\(s.importNotes)")
        #expect(
            s.importNotes.contains {
                $0.hasPrefix("test.json:1:")
                    && $0.hasSuffix("layers[0].animations[0].keyTimes: ignored in paced mode, as in Core Animation")
            }, "\(s.importNotes)")
        #expect(
            s.importNotes.contains {
                $0.hasSuffix("layers[0].animations[0].timingFunctions: ignored in paced mode, as in Core Animation")
            },
            "\(s.importNotes)")
    }

    /// A count that would be wrong in linear mode does not matter where the list is ignored, and many
    /// animations that set it make one note each kind, naming the first.
    @Test func countsDoNotMatterAndOneNoteIsSaid() throws {
        let wrong =
            #"{"type": "keyframe", "keyPath": "position.y", "values": [0, 10, 40], "duration": 1, "calculationMode": "cubicPaced", "keyTimes": [0, 1], "timingFunctions": ["linear"]}"#
        let s = try scene([Self.paced, wrong, wrong].joined(separator: ", "))
        #expect(s.importNotes.count == 2, "\(s.importNotes)")
        #expect(s.importNotes.allSatisfy { $0.contains("layers[0].animations[0].") }, "\(s.importNotes)")
        #expect(
            try scene(wrong).importNotes.contains { $0.hasSuffix("keyTimes: ignored in cubicPaced mode, as in Core Animation") })
    }

    @Test func wrongCountsStayErrorsInModesThatUseThem() {
        let linear = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "keyTimes": [0, 1]}]}]}"#
        )
        #expect(
            linear?.path == "layers[0].animations[0].keyTimes" && linear?.message.contains("2 key times for 3 values") == true)
        let cubic = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"animations": [{"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "calculationMode": "cubic", "timingFunctions": ["linear"]}]}]}"#
        )
        #expect(cubic?.path == "layers[0].animations[0].timingFunctions", "\(String(describing: cubic))")
    }

    @Test func aSceneWithoutIgnoredListsHasNoNote() throws {
        let s = try scene(
            #"{"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 40], "duration": 1, "calculationMode": "paced"}"#)
        #expect(s.importNotes.isEmpty)
    }
}
