// `reel preview`'s HTTP server (FlyingFox): the page, the scene's state as JSON, and its frames as the
// PNGs `reel still` writes; every request checked, a bad one answered 4xx with the reason.
import FlyingFox
import FlyingSocks
import Foundation
import Reel

struct PreviewServer {
    let session: PreviewSession
    let export: PreviewExport
    /// An export started from the page stops when the command is interrupted, too.
    let interrupts: Cancellation
    /// The largest frame served, in pixels a side.
    static let maximumSide = 4096

    /// Serves until the task is cancelled; `listening` is called with the port once it accepts.
    func run(host: String, port: UInt16, listening: @escaping @Sendable (UInt16) -> Void) async throws {
        let server = HTTPServer(address: try .inet(ip4: host, port: port), logger: QuietLogger())
        let (session, export, interrupts) = (session, export, interrupts)
        /// Every route answers only requests addressed to this machine by number or as localhost.
        func route(_ pattern: HTTPRoute, _ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) async {
            await server.appendRoute(pattern) { request in
                if let refused = Self.foreign(request) { return refused }
                return await handler(request)
            }
        }
        await route("GET /") { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: Data(PreviewPage.html.utf8))
        }
        await route("GET /state") { _ in
            Self.json(session.state())
        }
        await route("GET /frame") { request in
            await Self.frame(request, session: session)
        }
        await route("GET /layers") { request in
            await withCheckedContinuation { done in
                Self.outlining.async { done.resume(returning: Self.layers(request, session: session)) }
            }
        }
        await route("GET /export") { _ in
            Self.json(export.current())
        }
        await route("POST /export") { request in
            // A page of another site cannot send this header without the preflight the preview never
            // answers: only Reel's own page starts exports.
            guard request.headers[HTTPHeader("X-Reel-Preview")] != nil else {
                return Self.refusal(.forbidden, "exports are started from the preview's own page")
            }
            if request.query["cancel"] != nil {
                return export.cancel()
                    ? Self.json(export.current()) : Self.refusal(.conflict, "no export is running")
            }
            guard let preset = request.query["preset"] else {
                return Self.refusal(.badRequest, "preset: name one, as in /export?preset=docs-gif")
            }
            switch export.start(presetName: preset, parent: interrupts) {
            case .unknownPreset(let reason): return Self.refusal(.badRequest, reason)
            case .busy(let reason): return Self.refusal(.conflict, reason)
            case nil: break
            }
            return Self.json(export.current(), status: .accepted)
        }
        await route("*") { request in
            Self.refusal(
                .notFound,
                "\(request.method.rawValue) \(request.path): the preview serves /, /state, /frame, /layers and /export")
        }
        let ended = FailureBox()
        let task = Task {
            defer { ended.set("ended") }
            try await server.run()
        }
        // Until it listens, or run() has ended (a bind that failed: the address in use).
        let deadline = Date().addingTimeInterval(10)
        while !(await server.isListening) {
            if ended.get() != nil || Date() > deadline {
                task.cancel()
                if case .failure(let reason) = await task.result { throw reason }
                throw PreviewFailure(reason: "the server did not start listening")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        guard case .ip4(_, let bound) = await server.listeningAddress else {
            task.cancel()
            throw PreviewFailure(reason: "the server is not listening on an IPv4 address")
        }
        listening(bound)
        try await task.value
    }

    /// Frames are drawn one at a time, off the server's own threads, so the page and /state stay
    /// answered while a large frame renders; outlines (a large imported tree has many layers) likewise,
    /// on a queue of their own so they do not wait behind a frame.
    static let drawing = DispatchQueue(label: "reel.preview.frames")
    static let outlining = DispatchQueue(label: "reel.preview.outlines")
    /// The last /layers answer, for the version and time it was made for: the page asks again for
    /// the frame it shows, hovering or not. Read and written on `outlining` only.
    nonisolated(unsafe) static var lastOutlines: (version: Int, t: Double, response: Data)?

    /// `GET /frame?t=SECONDS&width=W`: the PNG `reel still SCENE --at SECONDS --width W` writes.
    static func frame(_ request: HTTPRequest, session: PreviewSession) async -> HTTPResponse {
        let (clip, _, error) = session.current()
        guard let scene = clip?.scene else { return refusal(.conflict, error ?? "the scene has not loaded") }
        let (duration, sceneWidth, sceneHeight) = (scene.duration, scene.pixelWidth, scene.pixelHeight)
        guard let text = request.query["t"], let t = Double(text), t.isFinite else {
            return refusal(.badRequest, "t: give the time in seconds, as in /frame?t=1.5")
        }
        guard t >= 0 && t <= duration else {
            return refusal(.badRequest, "t=\(text) is outside the clip (0 to \(duration) s)")
        }
        var width: Int?
        if let text = request.query["width"] {
            guard let w = Int(text), w >= 1 else {
                return refusal(.badRequest, "width: give a whole number of pixels ≥ 1, got \(text)")
            }
            // Measured in Double: a width near Int.max must be refused, not overflow.
            let height = Double(sceneHeight) * Double(w) / Double(sceneWidth)
            guard w <= maximumSide && height.rounded() <= Double(maximumSide) else {
                return refusal(
                    .badRequest, "width=\(text) makes a frame over \(maximumSide) pixels a side; at most \(maximumSide)")
            }
            width = w
        } else if max(sceneWidth, sceneHeight) > maximumSide {
            return refusal(
                .badRequest,
                "the scene is \(sceneWidth)×\(sceneHeight) px, over \(maximumSide) a side: ask for a smaller width=")
        }
        do {
            guard let clip = try session.clip(width: width) else {
                return refusal(.conflict, error ?? "the scene has not loaded")
            }
            let png = try await withCheckedThrowingContinuation { (done: CheckedContinuation<[UInt8], any Error>) in
                drawing.async { done.resume(with: Result { () throws(ReelError) in try Reel.stillPNG(clip, at: t) }) }
            }
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: Data(png))
        } catch {
            return refusal(.internalServerError, ErrorReport.describe(error)?.message ?? "\(error)")
        }
    }

    /// A request whose Host is a name other than localhost, or a POST from another origin, is refused:
    /// a page of another site can point a name of its own at this machine (DNS rebinding) and would
    /// then count as the preview's own page. Without a Host line (HTTP/1.0 tools) nothing is checked.
    static func foreign(_ request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.headers[.host] else { return nil }
        let name = host.lastIndex(of: ":").map { String(host[..<$0]) } ?? host
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 && parts.allSatisfy({ UInt8($0) != nil }) || name.lowercased() == "localhost" else {
            return refusal(.forbidden, "Host: \(host): the preview answers requests for an IPv4 address or localhost only")
        }
        if request.method == .POST, let origin = request.headers[HTTPHeader("Origin")], origin != "http://\(host)" {
            return refusal(.forbidden, "Origin: \(origin): exports are started from the preview's own page")
        }
        return nil
    }

    /// `GET /layers?t=SECONDS`: where each layer lies on the frame at that time, in the scene's pixels;
    /// one entry per row of /state's `layers`, with the version they belong to.
    static func layers(_ request: HTTPRequest, session: PreviewSession) -> HTTPResponse {
        let (clip, version, error) = session.current()
        guard let clip else { return refusal(.conflict, error ?? "the scene has not loaded") }
        guard let text = request.query["t"], let t = Double(text), t.isFinite, t >= 0, t <= clip.scene.duration else {
            return refusal(.badRequest, "t: give a time in seconds from 0 to \(clip.scene.duration), as in /layers?t=1.5")
        }
        struct Entry: Encodable {
            var name: String
            var corners: [[Double]]?
            var order: Int
            var clippedBy: Int?
            var inMask: Bool
        }
        struct Layers: Encodable {
            var version: Int
            var t: Double
            var width: Int
            var height: Int
            var layers: [Entry]
        }
        if let last = lastOutlines, last.version == version, last.t == t { return json(data: last.response) }
        // A hundredth of a pixel is finer than the page can point.
        func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }
        let entries = Reel.layerOutlines(clip, at: t).map { o in
            Entry(
                name: o.name, corners: o.corners?.map { [rounded($0.x), rounded($0.y)] }, order: o.order,
                clippedBy: o.clippedBy, inMask: o.inMask)
        }
        let layers = Layers(
            version: version, t: t, width: clip.scene.pixelWidth, height: clip.scene.pixelHeight, layers: entries)
        guard let body = encoded(layers) else { return refusal(.internalServerError, "the outlines cannot be written as JSON") }
        lastOutlines = (version, t, body)
        return json(data: body)
    }

    static func encoded(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try? encoder.encode(value)
    }

    static func json(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
        guard let body = encoded(value) else { return refusal(.internalServerError, "the answer cannot be written as JSON") }
        return json(data: body, status: status)
    }

    static func json(data: Data, status: HTTPStatusCode = .ok) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: data)
    }

    static func refusal(_ status: HTTPStatusCode, _ reason: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data((reason + "\n").utf8))
    }
}

struct PreviewFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// The server's own log lines are not shown: the command prints what the user needs.
struct QuietLogger: FlyingSocks.Logging {
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}
