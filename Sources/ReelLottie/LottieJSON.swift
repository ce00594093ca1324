/// Lottie (Bodymovin) JSON as Reel reads it: the located JSON tree with lenient accessors (files carry
/// many keys Reel does not use), how a Lottie file is told from a scene file, and the limits.
import Foundation
import ReelDocument

extension JSONNode {
    subscript(_ key: String) -> JSONNode? {
        guard case .object(let pairs) = value else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    var number: Double? {
        switch value {
        case .number(let v): return v.isFinite ? v : nil
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var items: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    /// A whole number of a sane size (a type, an index, a count), else nil: `Int(1e38)` would trap.
    var integer: Int? {
        guard let v = number, abs(v) <= 1e9 else { return nil }
        return Int(v.rounded())
    }

    /// A number, or a list of numbers (a Lottie value of one or more dimensions).
    var numbers: [Double]? {
        if let v = number { return [v] }
        guard let a = items else { return nil }
        var out: [Double] = []
        for item in a {
            guard let v = item.number else { return nil }
            out.append(v)
        }
        return out
    }
}

/// Frames to key between two frame numbers, held to `LottieLimits.maximumSampledFrames` (computed in
/// floating point first: a span of 1e300 frames must not trap converting to Int).
func sampleCount(from first: Double, to last: Double) -> Int {
    let span = (last - first).rounded(.up)
    guard span.isFinite, span > 0 else { return 1 }
    return Int(min(span, Double(LottieLimits.maximumSampledFrames)))
}

public enum LottieLimits {
    /// Layers and shape items a file may build in all, every instance of a precomp counting its
    /// composition's again: a file past it is refused before anything is built (`LottieExpansion`);
    /// repeaters' copies, made during the import, are left out past it with a note.
    public static let maximumItems = 200_000
    /// How deep precomps and groups nest.
    public static let maximumDepth = 64
    /// Frames a property is sampled at when its keyframes do not map onto Core Animation's.
    public static let maximumSampledFrames = 100_000
    /// Copies one repeater makes; every copy's layers also count toward `maximumItems`.
    public static let maximumCopies = 1_000
}

extension LottieImport {
    /// Whether JSON bytes are a Lottie animation rather than a Reel scene: an object with none of a
    /// scene's `width` and `fps`, and with Lottie's frame rate, in and out points, or its version and
    /// layers. A file with only some of Lottie's keys is still told as one, so that the import says
    /// which it lacks (a scene would say `unknown key "v"`).
    public static func looksLikeLottie(_ bytes: [UInt8]) -> Bool {
        guard let root = try? JSONParser.parse(bytes) else { return false }
        return looksLikeLottie(root)
    }

    public static func looksLikeLottie(_ root: JSONNode) -> Bool {
        guard case .object = root.value, root["width"] == nil, root["fps"] == nil else { return false }
        let timing = root["fr"]?.number != nil && root["ip"]?.number != nil && root["op"]?.number != nil
        return timing || (root["v"]?.string != nil && root["layers"]?.items != nil)
    }
}
