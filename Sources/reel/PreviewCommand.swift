// `reel preview`: a local page that shows a scene and follows its file as it is edited.
import ArgumentParser
import Foundation
import Reel

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Preview a scene in the browser, following the file as it is edited.",
        discussion: """
            Serves one page on this machine: the frame at the current time, play and pause, a scrubber, \
            the timeline of the scene's animations with its after: chains; pointing at the frame names \
            the layer there, clicking outlines it. Saving the scene (or an image, SVG, Lottie or font it \
            uses) shows the change within a second; a scene with an error keeps its last good frame and \
            shows the error over it. Export renders the scene with a built-in preset to NAME-PRESET.EXT \
            beside it, with reel render's progress. GET /frame?t=SECONDS&width=W returns the PNG reel \
            still writes; GET /layers?t=SECONDS where each layer lies. Stop it with Ctrl-C.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The scene file (JSON or YAML), or an SVG, Lottie or terminal recording (.cast) alone.", valueName: "scene"))
    var scene: String

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
    var port: Int = 4500

    @Option(help: ArgumentHelp("The address to listen on (only this machine by default).", valueName: "ip"))
    var host = "127.0.0.1"

    @Flag(help: "Open the page in the default browser.")
    var open = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535, got \(port)") }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ Int($0).map { (0...255).contains($0) } ?? false }) else {
            throw ValidationError("--host takes an IPv4 address such as 127.0.0.1 or 0.0.0.0, got \(host)")
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: scene) else {
            throw ReelError.usage("\(scene): no such file", fix: "give the path of a scene file")
        }
        let session = PreviewSession(path: scene)
        let export = PreviewExport(scene: session.path)
        // Ctrl-C stops the server at once, and an export in flight without leaving a half-written file.
        Interrupts.install(lastWords: { _ in }, idle: { export.current().state != "running" })
        session.watch()
        let started = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        let (host, port, open) = (host, UInt16(port), open)
        Task {
            do {
                try await PreviewServer(
                    session: session, export: export, interrupts: Interrupts.cancellation
                ).run(host: host, port: port) { bound in
                    let url = "http://\(host):\(bound)/"
                    FileHandle.standardOutput.write(Data("Previewing \(session.path) at \(url) (Ctrl-C stops)\n".utf8))
                    if open { Self.openInBrowser(url) }
                    started.signal()
                }
            } catch {
                failure.set("cannot serve on \(host):\(port): \(error)")
                started.signal()
            }
        }
        started.wait()
        if let message = failure.get() {
            throw ReelError.usage(Message(message), fix: "choose another --port, or --port 0 for any free one")
        }
        // Serves until the process is stopped.
        dispatchMain()
    }

    static func openInBrowser(_ url: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xdg-open", url]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
    }
}

/// A message handed from the server's task to the command's thread.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func set(_ m: String) { lock.withLock { message = m } }
    func get() -> String? { lock.withLock { message } }
}
