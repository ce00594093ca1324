/// Lottie animations packed in containers: dotLottie archives (`.lottie`: a zip of a manifest, its
/// animations, their images and themes) and Telegram stickers (`.tgs`: gzip'd Lottie JSON), read in
/// memory within limits: bombs, entry names that climb out of the archive and oversized entries are
/// refused with the limit named.
import Foundation
import ReelDocument
import ZIPFoundation

/// What a container may hold, and expand to.
public struct LottieContainerLimits: Sendable {
    /// Entries an archive may list.
    public var entries = 10_000
    /// Bytes one entry may expand to (an animation's JSON is held to `DocumentLimits.maximumBytes` too).
    public var entryBytes = 64 << 20
    /// Bytes the entries read may expand to together.
    public var totalBytes = 256 << 20

    public init() {}

    public static let standard = LottieContainerLimits()
}

/// An animation read from its container: its JSON, and its pictures as `data:` URIs by the path its
/// assets give (`u` + `p`), which the import then treats as embedded.
public struct LottieDocument: Sendable {
    public var root: JSONNode
    /// The dotLottie animation chosen (nil for a sticker), and every id the manifest lists.
    public var animationID: String?
    public var animationIDs: [String] = []
    public var pictures: [String: String] = [:]
    /// The dotLottie theme applied (the one asked for, or the animation's `initialTheme`), every theme
    /// the manifest lists, and the theme's values for the animation's slots, by slot id.
    public var themeID: String?
    public var themeIDs: [String] = []
    public var themeValues: [String: JSONNode] = [:]
    /// What of the theme is not applied, each with its place.
    public var notes: [String] = []
}

public enum LottieContainer {
    public enum Kind: Sendable {
        /// A `.lottie` archive.
        case dotLottie
        /// A `.tgs` Telegram sticker.
        case sticker
    }

    /// The container a file is, by its name and its first bytes: a zip named `.lottie` or any zip (no
    /// other input is one), a gzip file named `.tgs`; nil for anything else (plain JSON among it).
    public static func kind(path: String, prefix: [UInt8]) -> Kind? {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) || (ext == "lottie" && prefix.starts(with: [0x50, 0x4B])) {
            return .dotLottie
        }
        if ext == "tgs", Gzip.isCompressed(prefix) { return .sticker }
        return nil
    }

    /// The animation the container at `path` holds: a sticker's one, or the archive's `animation` (by
    /// its id in the manifest; nil: the manifest's first) with its `theme` (nil: the animation's initial
    /// theme, if any). An archive is read from its file (ZIPFoundation's reader of archives in memory
    /// traps on some damaged ones: a fuzzer found them), a sticker into memory.
    public static func read(
        path file: String, kind: Kind, animation: String? = nil, theme: String? = nil,
        limits: LottieContainerLimits = .standard
    ) throws(DocumentError) -> LottieDocument {
        switch kind {
        case .sticker:
            if let choice = animation ?? theme {
                throw DocumentError(
                    file: file,
                    message:
                        "is a Telegram sticker, which holds one animation and no themes: there is no \"\(choice)\" to choose",
                    fix: "leave the \(animation != nil ? "animation" : "theme") out")
            }
            let bytes = try InputFiles.read(file, maximumBytes: limits.entryBytes, what: "a Telegram sticker")
            let json = try Gzip.inflate(
                bytes, file: file, maximumBytes: min(limits.entryBytes, DocumentLimits.maximumBytes), what: "a Telegram sticker")
            return LottieDocument(root: try parse(json, file: file, entry: nil))
        case .dotLottie:
            try InputFiles.check(file)
            var archive = try DotLottieArchive(file, limits: limits)
            return try archive.document(animation: animation, theme: theme)
        }
    }

    /// A picture's bytes as the `data:` URI an embedded one would be (the decoder reads the bytes).
    public static func dataURI(_ picture: [UInt8]) -> String {
        "data:\(DotLottieArchive.mediaType(picture));base64," + Data(picture).base64EncodedString()
    }

    /// The pictures a Lottie file's image assets name as files (not embedded, not a URL), each once:
    /// `key` is `u` + `p` as written (what the import looks its picture up by), `folder` the `u` relative
    /// to the file's folder (a leading `/` dropped: dotLottie writes `/i/`) and `file` the `p`.
    public static func externalPictures(in root: JSONNode) -> [(key: String, folder: String, file: String)] {
        var out: [(key: String, folder: String, file: String)] = []
        for asset in root["assets"]?.items ?? [] {
            guard let p = asset["p"]?.string, !p.hasPrefix("data:"), asset["layers"] == nil else { continue }
            let u = asset["u"]?.string ?? ""
            guard !(u + p).contains("://"), !out.contains(where: { $0.key == u + p }) else { continue }
            out.append((u + p, u.hasPrefix("/") ? String(u.dropFirst()) : u, p))
        }
        return out
    }

    /// The file a container is not, by its name, where its bytes say otherwise: a `.tgs` that is no gzip
    /// file, a `.lottie` that is no zip (nor a Lottie's JSON, which is read as such). Nil otherwise.
    public static func misnamed(path: String, prefix: [UInt8]) -> DocumentError? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "tgs" where !Gzip.isCompressed(prefix):
            return DocumentError(
                file: path, message: "is not a Telegram sticker: a .tgs file is gzip'd Lottie JSON",
                fix: "give the sticker as Telegram saves it, or its animation's .json")
        case "lottie"
        where !prefix.starts(with: [0x50, 0x4B])
            && prefix.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) != UInt8(ascii: "{"):
            return DocumentError(
                file: path, message: "is not a dotLottie archive (a zip holding manifest.json)",
                fix: "export the .lottie again, or give the animation's .json")
        default: return nil
        }
    }

    static func parse(_ bytes: [UInt8], file: String, entry: String?) throws(DocumentError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            let place = entry.map { "\(file) (\($0))" } ?? file
            throw DocumentError(file: place, location: error.location, message: "invalid JSON: \(error.message)")
        }
    }
}

/// A dotLottie archive opened in memory: its entries checked once (names, count), each read within the
/// limits when asked for. Versions 1 (`animations/`, `images/`) and 2 (`a/`, `i/`) of the layout.
struct DotLottieArchive {
    private let archive: Archive
    private let file: String
    private let limits: LottieContainerLimits
    private var entries: [String: Entry] = [:]
    private var read = 0

    init(_ file: String, limits: LottieContainerLimits) throws(DocumentError) {
        self.file = file
        self.limits = limits
        do {
            archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .read)
        } catch {
            throw DocumentError(
                file: file, message: "is not a dotLottie archive: the zip cannot be read (\(error))",
                fix: "export the .lottie again, or give the animation's .json")
        }
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.entries else {
                throw DocumentError(
                    file: file, message: "lists more than \(limits.entries) entries, the limit for a dotLottie archive",
                    fix: "pack only the animations, images and themes it needs")
            }
            let name = entry.path
            // Nothing is written out, but a name that climbs out of the archive is a hostile one.
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0"), !parts.contains(".."),
                !name.contains(":")
            else {
                throw DocumentError(
                    file: file, message: "holds an entry named \"\(name)\", which reaches outside the archive",
                    fix: "pack it again with plain relative names")
            }
            guard entry.type != .symlink else {
                throw DocumentError(
                    file: file, message: "holds a symbolic link, \"\(name)\"", fix: "pack it again without links")
            }
            if entry.type == .file { entries[name] = entry }
        }
    }

    /// An entry's bytes, refused past the limits (its own and the archive's so far) as soon as its
    /// bytes pass them, whatever its header claims.
    mutating func bytes(of name: String, limit: Int? = nil) throws(DocumentError) -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        let own = min(limit ?? limits.entryBytes, limits.entryBytes)
        let room = max(0, limits.totalBytes - read)
        struct TooLarge: Error {}
        var out = Data()
        do {
            guard entry.uncompressedSize <= UInt64(min(own, room)) else { throw TooLarge() }
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                out.append(chunk)
                if out.count > min(own, room) { throw TooLarge() }
            }
        } catch is TooLarge {
            let which =
                own <= room
                ? "\(Self.size(own)), the limit for one entry" : "the archive's limit of \(Self.size(limits.totalBytes)) in all"
            throw DocumentError(
                file: file, message: "\(name) expands past \(which)",
                fix: "keep the archive's animations and images smaller")
        } catch {
            throw DocumentError(
                file: file, message: "\(name) cannot be read from the archive (\(error))", fix: "export the .lottie again")
        }
        read += out.count
        return [UInt8](out)
    }

    /// The animation `id` (nil: the manifest's first) with its pictures and its theme's values.
    mutating func document(animation id: String?, theme: String?) throws(DocumentError) -> LottieDocument {
        guard let manifestBytes = try bytes(of: "manifest.json", limit: 1 << 20) else {
            throw DocumentError(
                file: file, message: "is a zip without a manifest.json: not a dotLottie archive",
                fix: "export the .lottie again, or give the animation's .json")
        }
        let manifest = try LottieContainer.parse(manifestBytes, file: file, entry: "manifest.json")
        let ids = manifest["animations"]?.items?.compactMap { $0["id"]?.string } ?? []
        guard let first = ids.first else {
            throw DocumentError(
                file: file, path: "manifest.json: animations", message: "the manifest lists no animation (each with an \"id\")",
                fix: "export the .lottie again")
        }
        let chosen = id ?? first
        guard ids.contains(chosen) else {
            throw DocumentError(
                file: file, message: "has no animation \"\(chosen)\"",
                fix: "\(didYouMean(chosen, in: ids))one of \(ids.joined(separator: ", "))")
        }
        let entry = ["a/\(chosen).json", "animations/\(chosen).json"].first { entries[$0] != nil }
        guard let entry, let json = try bytes(of: entry, limit: DocumentLimits.maximumBytes) else {
            throw DocumentError(
                file: file,
                message: "lists the animation \"\(chosen)\" but holds no a/\(chosen).json (nor animations/\(chosen).json)",
                fix: "export the .lottie again")
        }
        var document = LottieDocument(root: try LottieContainer.parse(json, file: file, entry: entry))
        document.animationID = chosen
        document.animationIDs = ids
        // Pictures the animation's assets name, looked for where each version keeps them.
        for (key, folder, p) in LottieContainer.externalPictures(in: document.root) {
            for candidate in [folder + p, "i/" + p, "images/" + p] {
                guard let picture = try bytes(of: candidate) else { continue }
                document.pictures[key] = LottieContainer.dataURI(picture)
                break
            }
        }
        try applyTheme(theme, manifest: manifest, to: &document)
        return document
    }

    /// The theme asked for, or else the chosen animation's `initialTheme` (dotLottie 2: `t/ID.json`),
    /// read into slot values.
    mutating func applyTheme(_ asked: String?, manifest: JSONNode, to document: inout LottieDocument) throws(DocumentError) {
        let ids = manifest["themes"]?.items?.compactMap { $0["id"]?.string } ?? []
        document.themeIDs = ids
        let entry = manifest["animations"]?.items?.first { $0["id"]?.string == document.animationID }
        guard let id = asked ?? entry?["initialTheme"]?.string else { return }
        guard ids.contains(id) || entries["t/\(id).json"] != nil else {
            throw DocumentError(
                file: file, message: "has no theme \"\(id)\"",
                fix: ids.isEmpty
                    ? "it has no themes: leave the theme out" : "\(didYouMean(id, in: ids))one of \(ids.joined(separator: ", "))")
        }
        guard let bytes = try bytes(of: "t/\(id).json", limit: 1 << 20) else {
            throw DocumentError(
                file: file, message: "lists the theme \"\(id)\" but holds no t/\(id).json (a theme of dotLottie 2)",
                fix: "export the .lottie again as dotLottie 2")
        }
        let root = try LottieContainer.parse(bytes, file: file, entry: "t/\(id).json")
        document.themeID = id
        for (i, rule) in (root["rules"]?.items ?? []).enumerated() {
            let place = "t/\(id).json: rules[\(i)]"
            guard let slot = rule["id"]?.string, let type = rule["type"]?.string?.lowercased() else {
                document.notes.append("\(place): a rule without an \"id\" and a \"type\" is left out")
                continue
            }
            // A rule for some of the archive's animations only.
            if let only = rule["animations"]?.items?.compactMap(\.string), let shown = document.animationID,
                !only.contains(shown)
            {
                continue
            }
            guard rule["keyframes"] == nil, let value = rule["value"] else {
                document.notes.append("\(place): keyframed theme values are not applied (the slot \"\(slot)\" keeps the file's)")
                continue
            }
            switch type {
            case "color", "scalar", "position", "vector": document.themeValues[slot] = value
            case "text": document.themeValues[slot] = value["text"] ?? value
            default:
                document.notes.append("\(place): \(type) theme values are not applied (the slot \"\(slot)\" keeps the file's)")
            }
        }
    }

    static func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }

    /// The media type a picture's first bytes say (the decoder reads the bytes, not the type).
    static func mediaType(_ b: [UInt8]) -> String {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if b.starts(with: [0x47, 0x49, 0x46]) { return "image/gif" }
        if b.count >= 12, b[8..<12].elementsEqual([0x57, 0x45, 0x42, 0x50]) { return "image/webp" }
        return "application/octet-stream"
    }
}
