/// gzip files (RFC 1952) opened with a limit on what they expand to: `.svgz` drawings, SVG and other
/// documents saved compressed. zlib inflates them and checks the trailer (CGzip); the limit and the
/// messages are here.
internal import CGzip
import Foundation

public enum Gzip {
    /// Whether `bytes` begin as a gzip file does (0x1f 0x8b, which no XML, JSON or YAML text can).
    public static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    /// The bytes a gzip file holds, refused as soon as they pass `maximumBytes` (a few kilobytes of
    /// gzip can expand to gigabytes), and when the file is damaged, cut short or its check fails;
    /// `what` names the kind of document with its article ("an SVG file").
    public static func inflate(_ bytes: [UInt8], file: String, maximumBytes: Int, what: String) throws(DocumentError)
        -> [UInt8]
    {
        var inflated: [UInt8] = []
        let status = bytes.withUnsafeBufferPointer { input -> Int32 in
            var output: UnsafeMutablePointer<UInt8>?
            var written = 0
            let status = reel_gunzip(input.baseAddress, input.count, max(0, maximumBytes), &output, &written)
            if let output {
                inflated = Array(UnsafeBufferPointer(start: output, count: written))
                free(output)
            }
            return status
        }
        switch Int(status) {
        case REEL_GUNZIP_OK: return inflated
        case REEL_GUNZIP_TOO_LARGE:
            throw DocumentError(
                file: file,
                message: "expands to more than \(maximumBytes >> 20) MiB once decompressed, the limit for \(what)",
                fix: "keep it under \(maximumBytes >> 20) MiB uncompressed (split or simplify it)")
        case REEL_GUNZIP_NO_MEMORY:
            throw DocumentError(file: file, message: "cannot be decompressed: out of memory")
        default:
            throw DocumentError(
                file: file, message: "is gzip-compressed but damaged or cut short (zlib cannot inflate it, or its check fails)",
                fix: "compress it again, or save it uncompressed")
        }
    }
}
