// A render onto a full disk (a 64 KiB tmpfs; needs root) fails with "No space left on device" and leaves nothing behind.
import Foundation
import Testing

/// A 64 KiB tmpfs stands in for a full disk. Mounting needs root with CAP_SYS_ADMIN; where that is
/// missing the test is reported as skipped.
enum TinyDisk {
    static func mount(at path: String) -> Bool {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/mount")
        p.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", path]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static func unmount(_ path: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/umount")
        p.arguments = [path]
        try? p.run()
        p.waitUntilExit()
    }

    static let available: Bool = {
        let probe = (NSTemporaryDirectory() as NSString).appendingPathComponent("reel-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard mount(at: probe) else { return false }
        unmount(probe)
        return true
    }()
}

@Suite struct FullDiskTests {
    @Test(.enabled(if: TinyDisk.available, "needs root with CAP_SYS_ADMIN to mount a tmpfs"))
    func fullDiskFailsCleanly() throws {
        let ws = try Workspace()
        let disk = ws.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        #expect(TinyDisk.mount(at: disk))
        defer { TinyDisk.unmount(disk) }
        // examples/hello.json as an APNG is about 90 KB, more than the 64 KiB disk.
        let scene = ExamplesTests.examplesDirectory + "/hello.json"
        let r = try runReel(["render", scene, "-o", disk + "/big.apng"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("No space left on device"), "\(r.stderr)")
        #expect(ws.listing("disk").isEmpty, "left behind: \(ws.listing("disk"))")
    }
}
