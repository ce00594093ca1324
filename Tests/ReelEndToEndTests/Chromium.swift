/// Headless Chromium for the preview's page tests: the DOM after a time budget, and a page driven step by
/// step over the DevTools protocol (pointer moves and clicks, scripts, screenshots).
import Foundation
import Testing

let chromiumPath = "/usr/bin/chromium"

/// The page as headless Chromium leaves it after `budget` ms of virtual time (its fetches to the
/// preview are real), or nil without Chromium.
func chromiumDOM(_ url: String, budget: Int = 3000, profile: String) throws -> String? {
    guard FileManager.default.fileExists(atPath: chromiumPath) else {
        print("skipped: needs \(chromiumPath) (scripts/setup.sh installs it)")
        return nil
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: chromiumPath)
    p.arguments = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--window-size=900,700",
        "--virtual-time-budget=\(budget)", "--dump-dom", url,
    ]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    // A browser that never finishes must not hold the suite: it is stopped after a minute.
    let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    watchdog.cancel()
    return dom
}

/// One step of a driven page: wait until a script is true, read a script's value, move or click the
/// pointer at page coordinates (CSS pixels), or save a screenshot (of a page rectangle, at one device
/// pixel per CSS pixel).
enum PageStep: Encodable {
    case wait(String)
    case read(String)
    case move(x: Double, y: Double)
    case click(x: Double, y: Double)
    /// A click at the middle of the element a CSS selector finds.
    case clickOn(String)
    case screenshot(path: String, clip: [Double]?)
    /// Writes a file (a scene edited while the page is open).
    case write(path: String, text: String)

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .wait(let script): try c.encode(script, forKey: .wait)
        case .read(let script): try c.encode(script, forKey: .read)
        case .move(let x, let y): try c.encode([x, y], forKey: .move)
        case .click(let x, let y): try c.encode([x, y], forKey: .click)
        case .clickOn(let selector): try c.encode(selector, forKey: .clickOn)
        case .screenshot(let path, let clip):
            try c.encode(path, forKey: .screenshot)
            try c.encodeIfPresent(clip, forKey: .clip)
        case .write(let path, let text):
            try c.encode(path, forKey: .write)
            try c.encode(text, forKey: .text)
        }
    }
    enum Key: String, CodingKey { case wait, read, move, click, clickOn, screenshot, clip, write, text }
}

/// Opens `url` in headless Chromium (a `width`×`height` window) and runs `steps` over the DevTools
/// protocol (Chromium's --remote-debugging-pipe: no port, no extra package). Returns each `read`'s value
/// as JSON text, or nil without Chromium or Python. A step that fails (a wait past 20 s) is recorded.
func drivePage(
    _ url: String, steps: [PageStep], in ws: Workspace, width: Int = 1000, height: Int = 760
) throws -> [String]? {
    guard FileManager.default.fileExists(atPath: chromiumPath), FileManager.default.fileExists(atPath: "/usr/bin/python3")
    else {
        print("skipped: needs \(chromiumPath) and /usr/bin/python3 (scripts/setup.sh installs them)")
        return nil
    }
    let script = ws.write("cdp-driver.py", cdpDriver)
    let plan = ws.file("steps-\(UUID().uuidString).json")
    try JSONEncoder().encode(steps).write(to: URL(fileURLWithPath: plan))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = [script, chromiumPath, url, plan, ws.file("profile-\(UUID().uuidString)"), "\(width)", "\(height)"]
    let out = Pipe()
    // The driver's messages go to a file: only one pipe is read, so neither can fill up and stall.
    let errFile = ws.file("driver-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errFile, contents: nil)
    p.standardOutput = out
    p.standardError = FileHandle(forWritingAtPath: errFile)
    try p.run()
    // A driver that hangs is stopped (it then stops its Chromium) so the suite goes on.
    let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    watchdog.cancel()
    guard p.terminationStatus == 0 else {
        let errText = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
        Issue.record("the page driver failed: \(errText.suffix(1500))")
        return []
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// The DevTools protocol over Chromium's pipe (fd 3 in, fd 4 out, messages ended by NUL): attach to the
/// page, navigate, then each step. Prints one line of JSON per `read`.
private let cdpDriver = #"""
    import base64, json, os, signal, subprocess, sys, time

    chromium, url, plan, profile, width, height = sys.argv[1:7]
    steps = json.load(open(plan))
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()
    args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=" + profile, "--window-size=%s,%s" % (width, height), "--hide-scrollbars",
            "--force-device-scale-factor=1", "--force-color-profile=srgb", "about:blank"]
    shell = 'exec "$@" 3<&%d 4>&%d' % (to_chrome_r, from_chrome_w)
    # In a process group of its own, stopped with the driver (the test's watchdog sends SIGTERM).
    proc = subprocess.Popen(["/bin/sh", "-c", shell, "sh"] + args, pass_fds=(to_chrome_r, from_chrome_w),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    def stop(*_):
        try: os.killpg(proc.pid, signal.SIGKILL)
        except OSError: pass
        os._exit(1)
    signal.signal(signal.SIGTERM, stop)
    os.close(to_chrome_r); os.close(from_chrome_w)
    buffer = b""
    counter = 0
    session = None

    class ProtocolError(Exception): pass

    def send(method, params=None, use_session=True):
        global counter, buffer
        counter += 1
        message = {"id": counter, "method": method, "params": params or {}}
        if use_session and session: message["sessionId"] = session
        os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in buffer:
                chunk = os.read(from_chrome_r, 1 << 20)
                if not chunk: raise SystemExit("chromium closed the pipe during " + method)
                buffer += chunk
            raw, buffer = buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == counter:
                if "error" in reply: raise ProtocolError(method + ": " + json.dumps(reply["error"]))
                return reply.get("result", {})

    def evaluate(script, quiet=False):
        try:
            r = send("Runtime.evaluate", {"expression": script, "returnByValue": True, "awaitPromise": True})
        except ProtocolError:
            # The document being replaced while the page loads ("execution context was destroyed").
            if quiet: return None
            raise
        if "exceptionDetails" in r:
            # While the page loads, a wait's script may not run yet: it is only not true.
            if quiet: return None
            raise SystemExit("script failed: " + script + ": " + json.dumps(r["exceptionDetails"])[:800])
        return r.get("result", {}).get("value")

    try:
        target = next(t for t in send("Target.getTargets")["targetInfos"] if t["type"] == "page")
        session = send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        send("Page.enable")
        send("Page.navigate", {"url": url})
        for step in steps:
            if "wait" in step:
                deadline = time.time() + 20
                while not evaluate(step["wait"], quiet=True):
                    if time.time() > deadline: raise SystemExit("waited 20 s for: " + step["wait"])
                    time.sleep(0.05)
            elif "read" in step:
                print(json.dumps(evaluate(step["read"])), flush=True)
            elif "move" in step or "click" in step or "clickOn" in step:
                if "clickOn" in step:
                    x, y = evaluate("(() => { const r = document.querySelector(%s).getBoundingClientRect(); "
                                    "return [r.left + r.width / 2, r.top + r.height / 2]; })()" % json.dumps(step["clickOn"]))
                    step["click"] = [x, y]
                else:
                    x, y = step.get("move") or step.get("click")
                send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
                if "click" in step:
                    for kind in ("mousePressed", "mouseReleased"):
                        send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
            elif "write" in step:
                with open(step["write"], "w") as f: f.write(step["text"])
            elif "screenshot" in step:
                params = {"format": "png"}
                if step.get("clip"):
                    x, y, w, h = step["clip"]
                    params["clip"] = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
                data = send("Page.captureScreenshot", params)["data"]
                open(step["screenshot"], "wb").write(base64.b64decode(data))
    finally:
        try: send("Browser.close", use_session=False)
        except BaseException: pass
        try: proc.wait(timeout=10)
        except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL)
    """#
