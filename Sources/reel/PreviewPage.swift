// `reel preview`'s page: plain HTML, CSS and JavaScript served from the binary (no build step, no CDN).

enum PreviewPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>reel preview</title>
        <style>
          :root { color-scheme: light dark; font: 13px system-ui, sans-serif; }
          body { margin: 0; display: flex; flex-direction: column; height: 100vh; }
          header { padding: 6px 12px; display: flex; gap: 12px; align-items: center; border-bottom: 1px solid #8884; }
          header b { font-weight: 600; }
          #stage { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; position: relative; padding: 12px; }
          #view { position: relative; max-width: 100%; max-height: 100%; }
          #frame { display: block; max-width: 100%; max-height: calc(100vh - 240px); }
          .checker { background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
          #error { display: none; position: absolute; left: 12px; right: 12px; bottom: 12px; white-space: pre-wrap;
                   font: 12px ui-monospace, monospace; background: #b00020e8; color: #fff; padding: 10px 12px; border-radius: 6px; }
          #controls { display: flex; gap: 8px; align-items: center; padding: 6px 12px; border-top: 1px solid #8884; }
          #scrub { flex: 1; }
          #clock { font-variant-numeric: tabular-nums; min-width: 150px; }
          #timeline { max-height: 160px; overflow: auto; border-top: 1px solid #8884; padding: 4px 12px; }
          .row { display: flex; align-items: center; height: 18px; }
          .row .name { width: 180px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
          .row .track { flex: 1; position: relative; height: 12px; }
          .bar { position: absolute; top: 1px; height: 10px; border-radius: 3px; background: #3478f6aa; }
          #playhead { position: absolute; top: 0; bottom: 0; width: 1px; background: #e0567a; pointer-events: none; }
        </style>
        </head>
        <body>
        <header><b id="scene">reel preview</b><span id="facts"></span></header>
        <div id="stage"><div id="view"><img id="frame" alt="the frame at the current time"></div><div id="error"></div></div>
        <div id="controls">
          <button id="play" title="play / pause (space)">▶</button>
          <button id="back" title="one frame back (←)">◀︎|</button>
          <button id="forward" title="one frame forward (→)">|▶︎</button>
          <input id="scrub" type="range" min="0" max="0" value="0" step="1">
          <span id="clock">0.000 s · frame 0</span>
          <label><input id="loop" type="checkbox" checked> loop</label>
          <select id="speed"><option value="0.25">0.25×</option><option value="1" selected>1×</option></select>
        </div>
        <div id="timeline"></div>
        <script>
        "use strict";
        const $ = id => document.getElementById(id);
        let state = null, started = false, frame = 0, playing = false, lastTick = 0, clock = 0, inFlight = false, wanted = null, shown = null;

        function fps() { return state && state.fps ? state.fps : 30; }
        function frames() { return state && state.frames ? state.frames : 1; }
        function timeOf(i) { return Math.min(i / fps(), state && state.duration ? state.duration : 0); }
        function requestWidth() {
          const css = Math.max(1, $("stage").clientWidth - 24);
          const w = Math.round(Math.min(css, state.width) * (window.devicePixelRatio || 1));
          // The server draws at most 4096 pixels a side: a tall scene is limited by its height.
          const most = Math.floor(4096 * Math.min(1, state.width / state.height));
          return Math.max(1, Math.min(w, most));
        }
        // One request at a time: while a frame is on its way, only the latest wanted one waits, so
        // playback drops frames rather than falls behind.
        function show(i) {
          if (!state || state.duration == null) return;
          frame = Math.max(0, Math.min(i, frames() - 1));
          $("scrub").value = frame;
          const t = timeOf(frame);
          $("clock").textContent = t.toFixed(3) + " s · frame " + frame;
          wanted = "/frame?t=" + t.toFixed(6) + "&width=" + requestWidth() + "&v=" + state.version;
          fetchFrame();
          drawPlayhead();
        }
        function fetchFrame() {
          if (inFlight || wanted === null || wanted === shown) return;
          const url = wanted;
          inFlight = true;
          const img = new Image();
          img.onload = () => {
            $("frame").src = url; shown = url; inFlight = false;
            document.body.dataset.shown = url;
            document.body.dataset.loaded = (parseInt(document.body.dataset.loaded || "0", 10) + 1).toString();
            fetchFrame();
          };
          img.onerror = () => { inFlight = false; if (wanted !== url) fetchFrame(); };
          img.src = url;
        }
        function tick(now) {
          if (playing) {
            clock += (now - lastTick) / 1000 * parseFloat($("speed").value);
            let i = Math.floor(clock * fps());
            if (i >= frames()) {
              if ($("loop").checked) { clock = 0; i = 0; } else { i = frames() - 1; setPlaying(false); }
            }
            if (i !== frame) show(i);
          }
          lastTick = now;
          requestAnimationFrame(tick);
        }
        function setPlaying(p) {
          playing = p;
          clock = frame / fps();
          $("play").textContent = p ? "❚❚" : "▶";
        }
        function drawTimeline() {
          const box = $("timeline");
          box.textContent = "";
          for (const layer of state.layers) {
            const row = document.createElement("div");
            row.className = "row";
            const name = document.createElement("div");
            name.className = "name";
            name.style.paddingLeft = (layer.depth * 10) + "px";
            name.textContent = layer.name;
            const track = document.createElement("div");
            track.className = "track";
            for (const a of layer.animations) {
              const bar = document.createElement("div");
              bar.className = "bar";
              const end = a.end == null ? state.duration : Math.min(a.end, state.duration);
              bar.style.left = (100 * a.begin / state.duration) + "%";
              bar.style.width = Math.max(0.5, 100 * (end - a.begin) / state.duration) + "%";
              bar.title = a.kind + " " + a.keyPath + ", " + a.begin.toFixed(3) + "–" + (a.end == null ? "∞" : a.end.toFixed(3)) + " s";
              track.appendChild(bar);
            }
            row.append(name, track);
            box.appendChild(row);
          }
          drawPlayhead();
        }
        function drawPlayhead() {
          let head = $("playhead");
          const first = document.querySelector("#timeline .track");
          if (!first || !state || !state.duration) return;
          if (!head) { head = document.createElement("div"); head.id = "playhead"; $("timeline").style.position = "relative"; $("timeline").appendChild(head); }
          const x = first.offsetLeft + first.clientWidth * timeOf(frame) / state.duration;
          head.style.left = x + "px";
        }
        async function poll() {
          try {
            const next = await (await fetch("/state", {cache: "no-store"})).json();
            if (!state || next.version !== state.version) {
              // The first state with a clip (the scene may have had an error when the page opened).
              const first = !started && next.duration != null;
              if (first) started = true;
              state = next;
              $("scene").textContent = next.scene;
              document.body.dataset.version = next.version;
              if (next.duration != null) {
                $("facts").textContent = next.width + "×" + next.height + " px, " + (+next.fps.toFixed(3)) + " fps, " + next.duration + " s, " + next.frames + " frames";
                $("scrub").max = next.frames - 1;
                $("frame").className = next.transparent ? "checker" : "";
                drawTimeline();
                shown = null;
                // ?t=SECONDS opens the page at that time, ?play=1 playing (links, and the tests).
                const asked = new URLSearchParams(location.search);
                const start = first ? Math.round(parseFloat(asked.get("t") || "0") * next.fps) : frame;
                show(Math.max(0, Math.min(start || 0, next.frames - 1)));
                if (first && asked.get("play") === "1") setPlaying(true);
              }
              $("error").style.display = next.error ? "block" : "none";
              $("error").textContent = next.error || "";
              document.body.dataset.error = next.error ? "1" : "0";
            }
          } catch (e) { /* the server stopped: keep the last frame */ }
          setTimeout(poll, 250);
        }
        $("play").onclick = () => setPlaying(!playing);
        $("back").onclick = () => { setPlaying(false); show(frame - 1); };
        $("forward").onclick = () => { setPlaying(false); show(frame + 1); };
        $("scrub").oninput = e => { setPlaying(false); show(parseInt(e.target.value, 10)); };
        document.addEventListener("keydown", e => {
          if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
          if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
          // The scrubber would step too: the page's own step is the only one.
          if (e.key === "ArrowLeft") { e.preventDefault(); setPlaying(false); show(frame - 1); }
          if (e.key === "ArrowRight") { e.preventDefault(); setPlaying(false); show(frame + 1); }
        });
        window.addEventListener("resize", () => { if (state) { shown = null; show(frame); } });
        poll();
        requestAnimationFrame(t => { lastTick = t; requestAnimationFrame(tick); });
        </script>
        </body>
        </html>
        """#
}
