// Zip and gzip files made in memory for tests of the readers that open them (dotLottie archives,
// Telegram stickers): ZIPFoundation writes the zip, and the deflate stream inside the gzip framing.
import Foundation
import ZIPFoundation

public enum TestContainers {
    /// A zip of `entries` (deflated unless `stored`).
    public static func zip(_ entries: [(String, [UInt8])], stored: Bool = false) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (name, bytes) in entries {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: stored ? .none : .deflate
            ) { position, size in Data(bytes[Int(position)..<Int(position) + size]) }
        }
        guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return [UInt8](data)
    }

    /// gzip (RFC 1952) around a raw deflate stream: the header, the stream, its CRC-32 and size.
    public static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var body = Data()
        let crc = try Data.compress(size: Int64(bytes.count), bufferSize: 1 << 16) { position, size in
            Data(bytes[Int(position)..<Int(position) + size])
        } consumer: {
            body.append($0)
        }
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + [UInt8](body)
        for v in [UInt32(crc), UInt32(truncatingIfNeeded: bytes.count)] {
            for k in 0..<4 { out.append(UInt8(v >> (8 * k) & 255)) }
        }
        return out
    }
}
