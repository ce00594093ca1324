// Helpers for the end-to-end tests: running the built `reel`, a scratch workspace, GIF frames by time, ffmpeg, ffprobe.
import Foundation
import ReelMedia
import Testing

/// The `reel` executable built next to this test bundle (or `REEL_BINARY`).
func reelBinary() -> String {
    if let path = ProcessInfo.processInfo.environment["REEL_BINARY"] { return path }
    let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return bundleDir.appendingPathComponent("reel").path
}

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `reel` with arguments; `user` runs it as another uid (used to test permissions when the suite
/// runs as root, for whom every directory is writable); `directory` is its working directory.
@discardableResult
func runReel(
    _ arguments: [String], asUser uid: UInt32? = nil, environment: [String: String] = [:], directory: String? = nil,
    onStart: ((Process) -> Void)? = nil
) throws -> RunResult {
    let process = Process()
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    }
    if let uid {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", reelBinary()] + arguments
    } else {
        // Absolute before any change of working directory.
        process.executableURL = URL(fileURLWithPath: reelBinary()).absoluteURL
        process.arguments = arguments
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    onStart?(process)
    // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs any program to the end (the path to it, its arguments, a working directory), reading both
/// pipes before waiting so a chatty one cannot block: what `runReel` does for `reel`.
func runProgram(_ executable: String, _ arguments: [String], directory: String? = nil) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// What a viewer shows at each of a clip's `count` frames (frame i starts at round(100·i/fps) cs, GIF's
/// timing rule): a GIF merges repeated frames into longer ones, so its frames pair with the clip's by
/// time, not by number.
func shownAtClipFrames(_ frames: [DecodedFrame], count: Int, fps: Int) -> [[UInt8]] {
    (0..<count).map { i in
        let t = Double((2 * i * 100 + fps) / (2 * fps)) / 100
        return frames.last(where: { $0.time <= t + 1e-6 })?.rgba ?? []
    }
}

final class Workspace {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("reel-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) -> String {
        let p = (path as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Everything in the directory, hidden files included (temporary outputs are hidden).
    func listing(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file(sub))) ?? []).sorted()
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

let smallScene = """
    {
      "width": 64, "height": 48, "scale": 1, "fps": 10, "duration": 1, "background": "#ffffff",
      "layers": [
        {"name": "box", "position": [16, 24], "bounds": [0, 0, 16, 16], "backgroundColor": "#3478f6",
         "animations": [{"keyPath": "position.x", "fromValue": 16, "toValue": 48, "duration": 1}]}
      ]
    }
    """

/// Runs the ffmpeg tool (quiet, overwriting), recording an issue when it fails: the tests make their
/// sources with it and read Reel's outputs back with it.
func ffmpeg(_ arguments: [String]) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    p.arguments = ["-loglevel", "error", "-y"] + arguments
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    #expect(p.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " ")) failed")
}

/// The codec of each stream of a file, in order, as ffprobe names them.
func streamCodecs(_ path: String) throws -> [String] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    p.arguments = ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return text.split(whereSeparator: \.isNewline).map(String.init)
}
