/// The library's cancellation token: a render, sheet or concat asked to stop ends with the reason's
/// error and leaves no file; a batch's fail-fast stops its own jobs without touching the caller's token.
import Foundation
import Reel
import ReelScene
import ReelTestSupport
import Testing

@Suite struct CancellationTests {
    let scene = """
        {"width": 40, "height": 30, "fps": 10, "duration": 1, "background": "#336699",
         "layers": [{"name": "dot", "position": [20, 15], "bounds": [10, 10], "backgroundColor": "#ffffff"}]}
        """

    @Test func firstReasonWinsAndReachesChildren() {
        let parent = Cancellation()
        let child = Cancellation(parent: parent)
        #expect(child.reason == nil)
        parent.cancel(.signal(15))
        parent.cancel(.stopped("later"))
        #expect(parent.reason == .signal(15))
        #expect(child.reason == .signal(15))
        let alone = Cancellation(parent: Cancellation())
        alone.cancel(.stopped("a job failed"))
        #expect(alone.reason == .stopped("a job failed"))
    }

    @Test func cancelledRenderWritesNothing() throws {
        let ws = try Workspace()
        let path = ws.write("s.json", scene)
        let clip = try Reel.load(path, overrides: SceneOverrides(), sandboxed: false)
        for (output, reason) in [("a.mp4", Cancellation.Reason.signal(2)), ("b.gif", .stopped("asked to")), ("c/", .signal(15))] {
            let options = RenderOptions()
            options.cancellation.cancel(reason)
            #expect {
                try Reel.render(clip, to: ws.file(output), options: options)
            } throws: { error in
                switch (error as? ReelError, reason) {
                case (.cancelled(let s)?, .signal(let expected)): return s == expected
                case (.stopped(let why)?, .stopped(let expected)): return why == expected
                default: return false
                }
            }
            #expect(ws.listing() == ["s.json"], "\(output)")
        }
        let token = Cancellation()
        token.cancel(.signal(2))
        #expect(throws: ReelError.self) {
            try ContactSheet.write(clip, times: [0, 0.5], columns: 2, to: ws.file("sheet.png"), threads: 1, cancellation: token)
        }
        #expect(!FileManager.default.fileExists(atPath: ws.file("sheet.png")))
    }
}
