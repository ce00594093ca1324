/// Joining GIF segments without re-encoding: the blocks of a GIF file (GIF89a §17–27) found by walking
/// them, the comments where a segment says which frames it holds, and the join that writes the first
/// segment's header and every segment's frames in order.
import Foundation

/// GIF comment extensions (GIF89a §24), where a GIF segment says which frames it holds (written by
/// GIFFileWriter after the global colour table).
public enum GIFComment {
    /// The offset just past the header, the logical screen descriptor and the global colour table.
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return nil }
        let flags = bytes[10]
        let table = flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
        return 13 + table <= bytes.count ? 13 + table : nil
    }

    /// The comments before the first image of a GIF file.
    public static func read(fromFileAt path: String) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        // The comments sit before the first image: the first 64 KiB hold them.
        let bytes = [UInt8]((try? handle.read(upToCount: 1 << 16)) ?? Data())
        guard var i = headerEnd(bytes) else { return [] }
        var comments: [String] = []
        while i + 1 < bytes.count, bytes[i] == 0x21 {
            let label = bytes[i + 1]
            i += 2
            var text: [UInt8] = []
            while i < bytes.count, bytes[i] != 0 {
                let n = Int(bytes[i])
                guard i + 1 + n <= bytes.count else { return comments }
                if label == 0xFE { text += bytes[(i + 1)..<(i + 1 + n)] }
                i += 1 + n
            }
            i += 1
            if label == 0xFE { comments.append(String(decoding: text, as: UTF8.self)) }
        }
        return comments
    }
}

/// A GIF file cut into its blocks.
struct GIFBlocks {
    /// The signature, the logical screen descriptor and the global colour table.
    var header: ArraySlice<UInt8>
    /// The application extensions before the first image (the NETSCAPE2.0 loop), comments left out.
    var applicationExtensions: [ArraySlice<UInt8>]
    /// Each frame's bytes: its graphic control extension, if any, through the end of its image data.
    var frames: [ArraySlice<UInt8>]

    /// Why bytes are not a whole GIF.
    struct Problem: Error {
        var reason: String
    }

    /// Walks `bytes`: fails (with the reason) for anything but a whole GIF ending in its trailer.
    static func read(_ bytes: [UInt8]) -> Result<GIFBlocks, Problem> {
        guard let headerEnd = GIFComment.headerEnd(bytes), Array(bytes.prefix(6)) == Array("GIF89a".utf8) else {
            return .failure(Problem(reason: "not a GIF89a file"))
        }
        var blocks = GIFBlocks(header: bytes[0..<headerEnd], applicationExtensions: [], frames: [])
        var i = headerEnd
        var frameStart: Int?
        /// The end of the sub-blocks starting at `j` (past the terminator), or nil if the file ends first.
        func subBlocksEnd(_ j: Int) -> Int? {
            var j = j
            while j < bytes.count {
                let n = Int(bytes[j])
                if n == 0 { return j + 1 }
                j += 1 + n
            }
            return nil
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x3B:
                return .success(blocks)
            case 0x21:
                guard i + 1 < bytes.count, let end = subBlocksEnd(i + 2) else {
                    return .failure(Problem(reason: "it ends inside an extension"))
                }
                switch bytes[i + 1] {
                case 0xF9: frameStart = frameStart ?? i
                case 0xFF where blocks.frames.isEmpty: blocks.applicationExtensions.append(bytes[i..<end])
                default: break
                }
                i = end
            case 0x2C:
                guard i + 10 <= bytes.count else { return .failure(Problem(reason: "it ends inside an image descriptor")) }
                let flags = bytes[i + 9]
                let table = flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
                // The descriptor, a local colour table, the LZW minimum code size, then the data.
                guard let end = subBlocksEnd(i + 10 + table + 1) else {
                    return .failure(Problem(reason: "it ends inside an image"))
                }
                blocks.frames.append(bytes[(frameStart ?? i)..<end])
                frameStart = nil
                i = end
            default:
                return .failure(Problem(reason: "byte \(i) is not the start of a block"))
            }
        }
        return .failure(Problem(reason: "it has no trailer (the file is incomplete)"))
    }
}

public enum GIFJoiner {
    /// Writes the GIF files at `paths` (segments, ordered and contiguous) as one GIF: the first one's
    /// screen, palette and loop, then every segment's frames as they were written. Each segment's first
    /// frame is whole (coded over nothing) and its last frame's disposal leaves nothing behind, so the
    /// frames stand where they are put.
    public static func join(_ paths: [String], to output: String) throws(GIFError) {
        var parts: [GIFBlocks] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableSegment(path: path) }
            switch GIFBlocks.read([UInt8](data)) {
            case .success(let blocks): parts.append(blocks)
            case .failure(let problem): throw .notWhole(path: path, reason: problem.reason)
            }
            if parts.count > 1 && parts.last!.header != parts[0].header {
                throw .encodedDifferently(path: path, first: paths[0])
            }
        }
        var out = [UInt8](parts[0].header)
        for block in parts[0].applicationExtensions { out += block }
        for part in parts { for frame in part.frames { out += frame } }
        out.append(0x3B)
        guard FileManager.default.createFile(atPath: output, contents: Data(out)) else {
            throw .cannotWriteJoined(path: output, reason: String(cString: strerror(errno)))
        }
    }
}
