// The build step that writes the commit a binary is built from into ReelBuildInfo, for `reel --version`.
import Foundation
import PackagePlugin

/// A prebuild command, so that it runs before every build (a commit changes nothing SwiftPM can see).
/// The script rewrites its file only when the text changes: an unchanged commit recompiles nothing.
/// `REEL_COMMIT` in the environment wins, for builds from a source tree without `.git`.
@main
struct CommitStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Stamp")
        let script = #"""
            set -u
            if [ -n "${REEL_COMMIT:-}" ]; then
              commit="$REEL_COMMIT"
            elif commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null); then
              git -C "$1" diff --quiet HEAD -- 2>/dev/null || commit="$commit with uncommitted changes"
            else
              commit=unknown
            fi
            mkdir -p "$2"
            text="// Written by the CommitStamp plugin before each build.
            let stampedCommit = \"$commit\""
            if [ "$(cat "$2/Commit.swift" 2>/dev/null)" != "$text" ]; then printf '%s\n' "$text" > "$2/Commit.swift"; fi
            """#
        return [
            .prebuildCommand(
                displayName: "Stamping the commit into \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "stamp", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output
            )
        ]
    }
}
