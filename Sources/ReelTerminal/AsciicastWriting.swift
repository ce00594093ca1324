/// A recording written as an asciicast v2 file, byte for byte the same for the same recording: times
/// to the microsecond, strings escaped one way, no wall-clock timestamp.
import ReelDocument

extension TerminalRecording {
    /// The recording as an asciicast v2 file (output events only, with markers).
    public func asciicast(environment: [String: String] = [:]) -> [UInt8] {
        var out = "{\"version\": 2, \"width\": \(columns), \"height\": \(rows)"
        if let idleTimeLimit { out += ", \"idle_time_limit\": \(Self.time(idleTimeLimit))" }
        if !environment.isEmpty {
            out +=
                ", \"env\": {"
                + environment.sorted { $0.key < $1.key }.map { "\(JSONParser.quoted($0.key)): \(JSONParser.quoted($0.value))" }
                .joined(
                    separator: ", ") + "}"
        }
        out += "}\n"
        for e in events {
            switch e.kind {
            case .output(let range):
                out += "[\(Self.time(e.time)), \"o\", \(JSONParser.quoted(String(decoding: output[range], as: UTF8.self)))]\n"
            case .resize(let c, let r): out += "[\(Self.time(e.time)), \"r\", \"\(c)x\(r)\"]\n"
            case .marker(let label): out += "[\(Self.time(e.time)), \"m\", \(JSONParser.quoted(label))]\n"
            case .input, .exit: break
            }
        }
        return Array(out.utf8)
    }

    /// Seconds to the microsecond, without trailing zeros.
    static func time(_ t: Double) -> String {
        let micro = Int((t * 1_000_000).rounded())
        var s = "\(micro / 1_000_000)"
        let fraction = micro % 1_000_000
        if fraction != 0 {
            var f = String(fraction)
            f = String(repeating: "0", count: 6 - f.count) + f
            while f.last == "0" { f.removeLast() }
            s += "." + f
        }
        return s
    }
}
