// The `reel` command: its subcommands, and its `main`, which turns every error into one message and exit status.
import ArgumentParser
import Foundation
import Reel

@main
struct ReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Render Core Animation-style scenes to MP4 and GIF, on the CPU.",
        discussion: """
            A scene file describes layers and their animations with Core Animation's names \
            (position, bounds, opacity, backgroundColor, cornerRadius; fromValue, toValue, beginTime, \
            duration). The format is in docs/scene-format.md.

            Examples:
              reel render examples/hello.json -o out/hello.mp4
              reel render examples/hello.json -o out/hello.gif --scale 1 --fps 25
              reel render examples/star-button.yaml -o slow.gif --speed 0.25
              reel sheet examples/star-button.yaml -o sheet.png --count 12
            """,
        version: ReelVersion.string,
        subcommands: [
            Render.self, Batch.self, Concat.self, Still.self, Preview.self, Sheet.self, Presets.self, Fonts.self, Timeline.self,
            Info.self, Record.self,
        ]
    )

    /// ArgumentParser's own `main`, except that with `--progress json` a malformed command line is
    /// answered in JSON too, and the lines captured from the libraries are let through before exit.
    static func main() {
        CrashReports.ensureNonInteractive()
        if VersionReport.isAsked(CommandLine.arguments) {
            print(VersionReport.text)
            return
        }
        if Console.wantsJSON(CommandLine.arguments) { Console.startJSON() }
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = 0
        } catch let code as ExitCode {
            status = code.rawValue  // the command has said why
        } catch {
            if let (message, code) = ErrorReport.describe(error) {
                Console.say(.error(message, exit: code))
                status = code
            } else {
                // ArgumentParser's own errors: usage, help, version.
                let code = exitCode(for: error).rawValue
                guard Console.isJSON, code != 0 else {
                    Console.finish()
                    exit(withError: error)
                }
                Console.say(.error(fullMessage(for: error), exit: code))
                status = code
            }
        }
        Console.finish()
        Foundation.exit(status)
    }
}
