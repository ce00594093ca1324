// The retained presentation and the commands kept for still subtrees: the same display lists as sampling
// anew, still subtrees presented once, and the kept commands held to their budget.
import Foundation
import ReelRaster
import ReelScene
import Synchronization
import Testing

@testable import ReelRender

@Suite struct RetainedPresentationTests {
    /// Still layers beside, under and above moving ones: a still card holding a moving dot (the card is
    /// not still), a still badge, a replicator of still bars, a masked still panel, and a moving title bar
    /// with a still icon in it. Still, by hand: badge (1), bars replicator + bar (2), panel + its mask (2),
    /// the icon (1), the card's still label (1): 7.
    static let json = ##"""
        {"width": 160, "height": 120, "fps": 10, "duration": 2, "background": "#ffffff", "layers": [
          {"name": "card", "position": [40, 40], "bounds": [60, 40], "backgroundColor": "#ddeeff", "sublayers": [
            {"name": "label", "position": [20, 10], "bounds": [20, 6], "backgroundColor": "#334455"},
            {"name": "dot", "position": [10, 30], "bounds": [6, 6], "cornerRadius": 3, "backgroundColor": "#ff0000",
             "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 50, "duration": 2}]}]},
          {"name": "badge", "position": [130, 20], "bounds": [16, 16], "cornerRadius": 8, "backgroundColor": "#00aa00",
           "shadowOpacity": 0.5, "shadowRadius": 3},
          {"name": "bars", "type": "replicator", "position": [30, 100], "bounds": [100, 10],
           "instanceCount": 5, "instanceTransform": {"translation": [20, 0]},
           "sublayers": [{"name": "bar", "position": [5, 5], "bounds": [8, 8], "backgroundColor": "#8844cc"}]},
          {"name": "panel", "position": [120, 70], "bounds": [30, 30], "backgroundColor": "#ffaa00",
           "mask": {"name": "hole", "position": [15, 15], "bounds": [20, 20], "cornerRadius": 10, "backgroundColor": "#000000"}},
          {"name": "title", "position": [80, 8], "bounds": [160, 16], "backgroundColor": "#222222",
           "animations": [{"keyPath": "opacity", "fromValue": 0.2, "toValue": 1, "duration": 1}],
           "sublayers": [{"name": "icon", "position": [8, 8], "bounds": [8, 8], "backgroundColor": "#ffffff"}]}
        ]}
        """##

    /// Every frame's display list from the retained presentation (with commands kept across frames)
    /// equals the list made from `Scene.sample` alone. Exact.
    @Test func listsEqualThoseOfAFreshSample() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8), file: "retained.json")
        let retained = RetainedPresentation(scene)
        let renderer = SceneRenderer()
        for frame in 0..<scene.frameCount {
            let t = scene.fps.time(ofFrame: frame)
            let kept = renderer.displayList(for: retained.sample(at: t), scene: scene)
            let fresh = SceneRenderer().displayList(for: scene.sample(at: t), scene: scene)
            #expect(kept == fresh, "frame \(frame)")
        }
        #expect(renderer.retainedCommands.bytes > 0)
    }

    /// The example scenes too, every third frame (the files the README renders).
    @Test(arguments: ["star-button.yaml", "spring-button.yaml", "search-back.yaml", "gradient-switch.yaml", "favorite-star.yaml"])
    func exampleListsEqualThoseOfAFreshSample(_ name: String) throws {
        let scene = try Reference.scene(name)
        let retained = RetainedPresentation(scene)
        let renderer = SceneRenderer()
        for frame in stride(from: 0, to: scene.frameCount, by: 3) {
            let t = scene.fps.time(ofFrame: frame)
            #expect(
                renderer.displayList(for: retained.sample(at: t), scene: scene)
                    == SceneRenderer().displayList(for: scene.sample(at: t), scene: scene), "\(name) frame \(frame)")
        }
    }

    /// Still subtrees are presented once: the same identity at every time, on exactly the layers counted
    /// by hand above; moving ones (and those holding a moving layer) have none.
    @Test func stillSubtreesArePresentedOnce() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8), file: "retained.json")
        let retained = RetainedPresentation(scene)
        #expect(retained.stillLayerCount == 7)
        let a = retained.sample(at: 0.1), b = retained.sample(at: 1.7)
        #expect(a.retained == nil)
        for name in ["badge", "bars", "panel", "label", "icon"] {
            let id = try #require(a.layers.find(name)?.retained, "\(name) is still")
            #expect(b.layers.find(name)?.retained == id)
        }
        for name in ["card", "dot", "title"] { #expect(a.layers.find(name)?.retained == nil, "\(name) moves") }
    }

    /// A scene with nothing moving is one still snapshot: the same layers and identity at every time.
    @Test func aStillSceneIsOneSnapshot() throws {
        let scene = try SceneDecoder.decode(
            Array(
                ##"{"width": 20, "height": 20, "fps": 10, "duration": 1, "layers": [{"name": "a", "position": [5, 5], "bounds": [4, 4], "backgroundColor": "#000000"}, {"name": "b", "position": [12, 12], "bounds": [4, 4], "backgroundColor": "#ff0000"}]}"##
                    .utf8), file: "still.json")
        let retained = RetainedPresentation(scene)
        let id = try #require(retained.sample(at: 0).retained)
        #expect(retained.sample(at: 0.9).retained == id)
        #expect(retained.stillLayerCount == 2)
    }

    /// The kept commands stay within their budget: none with a budget of 0, and no more bytes than a small
    /// budget allows; the lists are the same either way.
    @Test func keptCommandsStayWithinTheirBudget() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8), file: "retained.json")
        let retained = RetainedPresentation(scene)
        for budget in [0, 600, 64 << 20] {
            var renderer = SceneRenderer()
            renderer.retainedCommands = RetainedCommands(budget: budget)
            for frame in 0..<scene.frameCount {
                let t = scene.fps.time(ofFrame: frame)
                #expect(
                    renderer.displayList(for: retained.sample(at: t), scene: scene)
                        == SceneRenderer().displayList(for: scene.sample(at: t), scene: scene))
            }
            #expect(renderer.retainedCommands.bytes <= budget)
            if budget == 0 { #expect(renderer.retainedCommands.bytes == 0) }
            if budget == 64 << 20 { #expect(renderer.retainedCommands.bytes > 600) }
        }
    }

    /// Workers asking at once for a list that is not kept yet: one makes it, the others wait for it (the
    /// first frames of a clip are drawn at once, and each made the whole list again). The maker here
    /// takes 0.2 s, so the other three ask while it works; all four get its list.
    @Test func aListMadeByOneWorkerIsWaitedForByTheOthers() throws {
        let scene = try SceneDecoder.decode(
            Array(
                ##"{"width": 20, "height": 20, "fps": 10, "duration": 1, "layers": [{"name": "a", "position": [5, 5], "bounds": [4, 4], "backgroundColor": "#000000"}]}"##
                    .utf8), file: "still.json")
        let id = try #require(RetainedPresentation(scene).sample(at: 0).retained)
        let kept = RetainedCommands()
        let key = RetainedCommands.Key(id: id, toDevice: .identity, culled: true)
        let made = Atomic(0)
        let lengths = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let list = kept.commands(key) {
                made.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.2)
                return [.endGroup, .endGroup, .endGroup]
            }.commands
            lengths.withLock { $0.append(list.count) }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(lengths.withLock { $0 } == [3, 3, 3, 3])
    }

    /// A moving layer that is not drawn at a time (hidden by its animation, or at opacity 0) is presented
    /// without what is under it, and the lists are those of a full sample at every frame.
    @Test func whatIsUnderALayerNotDrawnIsNotPresented() throws {
        let scene = try SceneDecoder.decode(
            Array(
                ##"""
                {"width": 40, "height": 40, "fps": 10, "duration": 1, "layers": [
                  {"name": "window", "position": [20, 20], "bounds": [40, 40],
                   "animations": [{"keyPath": "hidden", "fromValue": true, "toValue": true, "beginTime": 0.5, "duration": 0.5}],
                   "sublayers": [{"name": "dot", "position": [10, 10], "bounds": [6, 6], "backgroundColor": "#ff0000",
                     "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 30, "duration": 1}]}]},
                  {"name": "fade", "position": [20, 20], "bounds": [40, 40],
                   "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 0.5, "fillMode": "forwards", "removedOnCompletion": false}],
                   "sublayers": [{"name": "bar", "position": [20, 30], "bounds": [20, 4], "backgroundColor": "#0000ff"}]}
                ]}
                """##.utf8), file: "windows.json")
        let retained = RetainedPresentation(scene)
        let renderer = SceneRenderer()
        for frame in 0..<scene.frameCount {
            let t = scene.fps.time(ofFrame: frame)
            let snapshot = retained.sample(at: t)
            #expect(snapshot.layers[0].sublayers.count == (t < 0.5 ? 1 : 0), "window at \(t)")
            #expect(snapshot.layers[1].sublayers.count == (t < 0.5 ? 1 : 0), "fade at \(t)")
            #expect(
                renderer.displayList(for: snapshot, scene: scene)
                    == SceneRenderer().displayList(for: scene.sample(at: t), scene: scene))
        }
    }

    /// A moving layer whose zPosition crosses the still layers' (0) goes under them, then over; still
    /// layers at different zPositions are ordered among the moving ones. The lists are those of a full
    /// sample at every frame, and the order changes where the hand-computed zPosition crosses 0.
    @Test(arguments: [0.0, 2.0]) func movingZPositionsCrossTheStillOnes(_ stillZ: Double) throws {
        let scene = try SceneDecoder.decode(
            Array(
                """
                {"width": 40, "height": 40, "fps": 10, "duration": 1, "layers": [
                  {"name": "a", "position": [20, 20], "bounds": [20, 20], "backgroundColor": "#ff0000"},
                  {"name": "diver", "position": [20, 20], "bounds": [10, 10], "backgroundColor": "#00ff00",
                   "animations": [{"keyPath": "zPosition", "fromValue": -1, "toValue": 1, "duration": 1}]},
                  {"name": "b", "position": [22, 22], "bounds": [20, 20], "backgroundColor": "#0000ff", "zPosition": \(stillZ)}
                ]}
                """.utf8), file: "z.json")
        let retained = RetainedPresentation(scene)
        let renderer = SceneRenderer()
        var orders = Set<[Bool]>()
        for frame in 0..<scene.frameCount {
            let t = scene.fps.time(ofFrame: frame)
            let list = renderer.displayList(for: retained.sample(at: t), scene: scene)
            #expect(list == SceneRenderer().displayList(for: scene.sample(at: t), scene: scene), "frame \(frame)")
            // Whether the diver's green is drawn after the red square: z = −1 + 2t ≥ 0 from t = 0.5 on (at
            // 0 it keeps its place after the square).
            let fills = list.commands.compactMap { c -> Bool? in
                guard case .fill(_, .solid(let color), _, _) = c else { return nil }
                return color.green == 1
            }
            orders.insert(fills)
            #expect((fills.firstIndex(of: true)! > 0) == (t >= 0.5), "frame \(frame)")
        }
        // With b at 0 too, the diver also passes over b once above 0 (t > 0.5): three orders, else two.
        #expect(orders.count == (stillZ == 0 ? 3 : 2))
    }
}
