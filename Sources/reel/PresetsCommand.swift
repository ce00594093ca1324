// `reel presets`: the shipped output presets.
import ArgumentParser
import Foundation
import Reel
import ReelScene

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the shipped output presets (use one with reel render --preset NAME).",
        discussion: "Each is a documented YAML file in the project's presets/ folder; --preset also takes a path to your own."
    )

    func run() throws {
        let names = Reel.presetNames
        let width = names.map(\.count).max() ?? 0
        for name in names {
            let p = try Reel.preset(name)
            let pad = String(repeating: " ", count: width - name.count)
            print("\(name)\(pad)  \(p.format.map { ".\($0)" } ?? "")\t\(p.description)")
        }
    }
}
