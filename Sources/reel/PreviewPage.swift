// `reel preview`'s page: its HTML and CSS, with the script (PreviewScript.swift), served from the binary
// (no build step, no CDN).

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
          #overlay { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
          #overlay polygon { fill: none; vector-effect: non-scaling-stroke; stroke-width: 2px; }
          #picked { stroke: #e0567a; }
          #hovered { stroke: #3478f6; stroke-dasharray: 4 3; }
          #hovername { position: absolute; pointer-events: none; display: none; font-size: 12px; padding: 2px 6px;
                       border-radius: 4px; background: #000c; color: #fff; white-space: nowrap; }
          .row.picked .name { color: #e0567a; font-weight: 600; }
          .row .name { cursor: pointer; }
          .bar span { font-size: 9px; line-height: 10px; padding-left: 3px; color: #fff; white-space: nowrap; overflow: hidden; display: block; }
          #chains { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
          #chains path { fill: none; stroke: #e0567a; stroke-width: 1.5px; }
          #chains circle { fill: #e0567a; }
          #export { margin-left: auto; display: flex; gap: 6px; align-items: center; }
          #exportline { font: 12px ui-monospace, monospace; white-space: pre; max-width: 60vw; overflow: hidden; text-overflow: ellipsis; }
        </style>
        </head>
        <body>
        <header><b id="scene">reel preview</b><span id="facts"></span>
          <span id="export"><span id="exportline"></span><select id="preset" title="the preset to export with"></select>
          <button id="exportbutton" title="render the scene with the preset, beside its file">Export</button></span></header>
        <div id="stage"><div id="view"><img id="frame" alt="the frame at the current time">
          <svg id="overlay"><polygon id="picked"></polygon><polygon id="hovered"></polygon></svg>
          <div id="hovername"></div></div><div id="error"></div></div>
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
        \#(PreviewScript.source)
        </script>
        </body>
        </html>
        """#
}
