/// A recording written as an asciicast v2 file, byte for byte the same for the same recording: times
/// to the microsecond, strings escaped one way, no wall-clock timestamp.

extension TerminalRecording {
    /// The recording as an asciicast v2 file (output events only, with markers).
    public func asciicast(environment: [String: String] = [:]) -> [UInt8] {
        var out = "{\"version\": 2, \"width\": \(columns), \"height\": \(rows)"
        if let idleTimeLimit { out += ", \"idle_time_limit\": \(Self.time(idleTimeLimit))" }
        if !environment.isEmpty {
            out +=
                ", \"env\": {"
                + environment.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \(Self.quoted($0.value))" }.joined(
                    separator: ", ") + "}"
        }
        out += "}\n"
        for e in events {
            switch e.kind {
            case .output(let range):
                out += "[\(Self.time(e.time)), \"o\", \(Self.quoted(String(decoding: output[range], as: UTF8.self)))]\n"
            case .resize(let c, let r): out += "[\(Self.time(e.time)), \"r\", \"\(c)x\(r)\"]\n"
            case .marker(let label): out += "[\(Self.time(e.time)), \"m\", \(Self.quoted(label))]\n"
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

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x7F:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
