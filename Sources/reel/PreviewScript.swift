// `reel preview`'s script: the frame, playback and scrubbing, the timeline with its chains, the layer
// outlines and the layer under the pointer, the export; all state is fetched from the preview's server.

enum PreviewScript {
    static let source = #"""
        "use strict";
        const $ = id => document.getElementById(id);
        let state = null, started = false, frame = 0, playing = false, lastTick = 0, clock = 0, inFlight = false, wanted = null, shown = null;
        // Where the layers lie on the shown frame (GET /layers), the row picked, the pointer over the frame.
        let outlines = null, outlinesWanted = null, outlinesInFlight = false, picked = null, pointer = null;
        // The picked layer by name and which of the layers so named: found again after a reload that
        // adds or moves layers.
        let pickedName = null, pickedOccurrence = 0;

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
          if (picked !== null || pointer) fetchOutlines();
        }
        // The outlines follow the frame shown, one request at a time, the latest time winning.
        function fetchOutlines() {
          if (!state || state.duration == null) return;
          outlinesWanted = "/layers?t=" + timeOf(frame).toFixed(6) + "&v=" + state.version;
          if (outlinesInFlight || (outlines && outlines.url === outlinesWanted)) return;
          const url = outlinesWanted;
          outlinesInFlight = true;
          fetch(url, {cache: "no-store"}).then(r => r.ok ? r.json() : null).then(o => {
            outlinesInFlight = false;
            if (o && o.version === state.version) { o.url = url; outlines = o; drawOverlay(); }
            if (outlinesWanted !== url) fetchOutlines();
          }).catch(() => {
            outlinesInFlight = false;
            if (outlinesWanted !== url) setTimeout(fetchOutlines, 250);
          });
        }
        function inside(c, x, y) {
          let inner = false;
          for (let i = 0, j = c.length - 1; i < c.length; j = i++) {
            const [xi, yi] = c[i], [xj, yj] = c[j];
            if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inner = !inner;
          }
          return inner;
        }
        // CALayer.hitTest's rule: the layer drawn last whose bounds hold the point, within every
        // ancestor that clips to its bounds; masks are never hit.
        function layerAt(x, y) {
          if (!outlines) return null;
          const all = outlines.layers;
          let best = null;
          for (let i = 0; i < all.length; i++) {
            const l = all[i];
            if (l.inMask || !l.corners || !inside(l.corners, x, y)) continue;
            let seen = true;
            for (let c = l.clippedBy; c != null; c = all[c].clippedBy) {
              if (!all[c].corners || !inside(all[c].corners, x, y)) { seen = false; break; }
            }
            if (seen && (best === null || l.order > all[best].order)) best = i;
          }
          return best;
        }
        function polygon(el, i) {
          const c = outlines && i !== null && outlines.layers[i] ? outlines.layers[i].corners : null;
          el.setAttribute("points", c ? c.map(p => p.join(",")).join(" ") : "");
          el.style.display = c ? "" : "none";
        }
        function drawOverlay() {
          const img = $("frame"), svg = $("overlay");
          svg.setAttribute("width", img.clientWidth);
          svg.setAttribute("height", img.clientHeight);
          if (outlines) svg.setAttribute("viewBox", "0 0 " + outlines.width + " " + outlines.height);
          svg.setAttribute("preserveAspectRatio", "none");
          polygon($("picked"), picked);
          const hit = pointer && outlines ? layerAt(pointer.fx * outlines.width, pointer.fy * outlines.height) : null;
          polygon($("hovered"), hit === picked ? null : hit);
          const label = $("hovername");
          if (pointer && hit !== null) {
            label.textContent = outlines.layers[hit].name;
            label.style.display = "block";
            label.style.left = (pointer.cssX + 14) + "px";
            label.style.top = (pointer.cssY + 14) + "px";
          } else {
            label.style.display = "none";
          }
          document.body.dataset.hover = pointer && hit !== null ? outlines.layers[hit].name : "";
          document.body.dataset.outlines = outlines && outlines.url === outlinesWanted ? "ready" : "waiting";
          document.body.dataset.picked = picked !== null && state.layers[picked] ? state.layers[picked].name : "";
          document.body.dataset.pickedCorners = picked !== null && outlines && outlines.layers[picked] && outlines.layers[picked].corners ? JSON.stringify(outlines.layers[picked].corners) : "";
        }
        function pick(i) {
          picked = i;
          pickedName = i === null ? null : state.layers[i].name;
          pickedOccurrence = i === null ? 0 : state.layers.slice(0, i).filter(l => l.name === pickedName).length;
          document.querySelectorAll("#timeline .row").forEach(r => r.classList.toggle("picked", +r.dataset.index === i));
          drawOverlay();
          fetchOutlines();
        }
        function scenePoint(e) {
          const img = $("frame");
          if (!state || !img.clientWidth) return null;
          const box = img.getBoundingClientRect(), view = $("view").getBoundingClientRect();
          return {
            fx: (e.clientX - box.left) / box.width, fy: (e.clientY - box.top) / box.height,
            cssX: e.clientX - view.left, cssY: e.clientY - view.top,
          };
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
          box.style.position = "relative";
          state.layers.forEach((layer, index) => {
            const row = document.createElement("div");
            row.className = "row" + (index === picked ? " picked" : "");
            row.dataset.index = index;
            const name = document.createElement("div");
            name.className = "name";
            name.style.paddingLeft = (layer.depth * 10) + "px";
            name.textContent = layer.name;
            name.title = layer.type + " layer: click to outline it on the frame";
            name.onclick = () => pick(picked === index ? null : index);
            const track = document.createElement("div");
            track.className = "track";
            for (const a of layer.animations) {
              const bar = document.createElement("div");
              bar.className = "bar";
              const end = a.end == null ? state.duration : Math.min(a.end, state.duration);
              bar.style.left = (100 * a.begin / state.duration) + "%";
              bar.style.width = Math.max(0.5, 100 * (end - a.begin) / state.duration) + "%";
              bar.title = (a.key ? a.key + ": " : "") + a.kind + " " + a.keyPath + ", " + a.begin.toFixed(3) + "–" + (a.end == null ? "∞" : a.end.toFixed(3)) + " s";
              if (a.key) { const label = document.createElement("span"); label.textContent = a.key; bar.appendChild(label); }
              track.appendChild(bar);
            }
            row.append(name, track);
            box.appendChild(row);
          });
          drawChains();
          drawPlayhead();
        }
        // The `after:` actions: a line from the stop of the animation waited for to the action, on the
        // row of the layer it acts on.
        function drawChains() {
          const box = $("timeline"), rows = box.querySelectorAll(".row");
          const first = box.querySelector(".track");
          if (!first || !state.cues || !state.cues.length) return;
          const ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg");
          svg.id = "chains";
          svg.setAttribute("width", box.scrollWidth);
          svg.setAttribute("height", box.scrollHeight);
          const x = t => first.offsetLeft + first.clientWidth * Math.min(t, state.duration) / state.duration;
          const y = i => rows[i].offsetTop + rows[i].offsetHeight / 2;
          let drawn = 0;
          for (const cue of state.cues) {
            let from = -1;
            state.layers.forEach((l, i) => { if (l.animations.some(a => a.key === cue.after)) from = i; });
            const to = state.layers.findIndex(l => l.name === cue.layer);
            if (from < 0 || to < 0) continue;
            const path = document.createElementNS(ns, "path");
            const [x0, y0, x1, y1] = [x(cue.stop), y(from), x(cue.time), y(to)];
            // Bowed to the right, so a chain to an action at the same moment stays visible.
            path.setAttribute("d", "M" + x0 + "," + y0 + " Q" + (Math.max(x0, x1) + 14) + "," + y0 + " " + x1 + "," + y1);
            const title = document.createElementNS(ns, "title");
            title.textContent = "after " + cue.after + " → " + cue.layer + " at " + cue.time.toFixed(3) + " s";
            path.appendChild(title);
            const dot = document.createElementNS(ns, "circle");
            dot.setAttribute("cx", x1); dot.setAttribute("cy", y1); dot.setAttribute("r", 3);
            svg.append(path, dot);
            drawn++;
          }
          box.appendChild(svg);
          document.body.dataset.chains = drawn;
        }
        function drawPlayhead() {
          let head = $("playhead");
          const first = document.querySelector("#timeline .track");
          if (!first || !state || !state.duration) return;
          if (!head) { head = document.createElement("div"); head.id = "playhead"; $("timeline").appendChild(head); }
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
                if (pickedName !== null) {
                  const rows = next.layers.map((l, i) => l.name === pickedName ? i : -1).filter(i => i >= 0);
                  picked = pickedOccurrence < rows.length ? rows[pickedOccurrence] : null;
                  if (picked === null) pickedName = null;
                }
                drawTimeline();
                shown = null;
                // ?t=SECONDS opens the page at that time, ?play=1 playing (links, and the tests).
                const asked = new URLSearchParams(location.search);
                if (first) {
                  const menu = $("preset");
                  for (const p of next.presets || []) {
                    const o = document.createElement("option");
                    o.value = p.name; o.textContent = p.name; o.title = p.description;
                    menu.appendChild(o);
                  }
                  menu.value = (next.presets || []).some(p => p.name === "docs-gif") ? "docs-gif" : menu.value;
                }
                outlines = null;
                const start = first ? Math.round(parseFloat(asked.get("t") || "0") * next.fps) : frame;
                show(Math.max(0, Math.min(start || 0, next.frames - 1)));
                // ?layer=NAME opens with that layer outlined (once the time is set, so the outline is
                // that time's).
                const named = first ? next.layers.findIndex(l => l.name === asked.get("layer")) : -1;
                if (named >= 0) pick(named);
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
          if ((e.target.tagName === "INPUT" && e.target.type !== "range") || e.target.tagName === "SELECT") return;
          if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
          // The scrubber would step too: the page's own step is the only one.
          if (e.key === "ArrowLeft") { e.preventDefault(); setPlaying(false); show(frame - 1); }
          if (e.key === "ArrowRight") { e.preventDefault(); setPlaying(false); show(frame + 1); }
        });
        // The chains are drawn in pixels: a new width draws the timeline again.
        window.addEventListener("resize", () => { if (state && state.duration != null) { drawTimeline(); shown = null; show(frame); } });
        $("frame").addEventListener("load", drawOverlay);
        $("frame").addEventListener("mousemove", e => {
          pointer = scenePoint(e);
          if (!outlines || outlines.url !== outlinesWanted) fetchOutlines();
          drawOverlay();
        });
        $("frame").addEventListener("mouseleave", () => { pointer = null; drawOverlay(); });
        $("frame").addEventListener("click", e => {
          const p = scenePoint(e);
          pick(p && outlines ? layerAt(p.fx * outlines.width, p.fy * outlines.height) : null);
        });
        // The export: one at a time, with the progress line reel render prints.
        let exporting = false, exportTimer = null;
        async function pollExport() {
          clearTimeout(exportTimer);
          try {
            const s = await (await fetch("/export", {cache: "no-store"})).json();
            exporting = s.state === "running";
            const notes = (s.notes || []).length ? " · " + s.notes.join(" · ") : "";
            $("exportline").textContent = s.state === "idle" ? "" : (s.output ? s.output + ": " : "") + (s.line || s.state) + notes;
            $("exportline").title = $("exportline").textContent;
            $("exportbutton").textContent = exporting ? "Cancel" : "Export";
            document.body.dataset.export = s.state;
            if (exporting) exportTimer = setTimeout(pollExport, 300);
          } catch (e) { /* the server stopped */ }
        }
        $("exportbutton").onclick = async () => {
          const query = exporting ? "cancel=1" : "preset=" + encodeURIComponent($("preset").value);
          const r = await fetch("/export?" + query, {method: "POST", headers: {"X-Reel-Preview": "1"}});
          // Refused (one started from another tab, say): the state as it is, then the reason.
          await pollExport();
          if (!r.ok) $("exportline").textContent = await r.text();
        };
        pollExport();
        poll();
        requestAnimationFrame(t => { lastTick = t; requestAnimationFrame(tick); });
        """#
}
