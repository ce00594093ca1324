/// `--help` of every command, as users read it. A change to the options shows here as a diff to
/// review (as swift-argument-parser tests its own help); after a deliberate change, print the new text
/// with `COLUMNS=80 reel SUBCOMMAND --help` and paste it in.
let helpSnapshots: [String: String] = [
    "": """
    OVERVIEW: Render Core Animation-style scenes to MP4 and GIF, on the CPU.

    A scene file describes layers and their animations with Core Animation's names
    (position, bounds, opacity, backgroundColor, cornerRadius; fromValue, toValue,
    beginTime, duration). See README.md for the format.

    Examples:
      reel render examples/hello.json -o out/hello.mp4
      reel render examples/hello.json -o out/hello.gif --scale 1 --fps 25
      reel render examples/star-button.yaml -o slow.gif --speed 0.25
      reel sheet examples/star-button.yaml -o sheet.png --count 12

    USAGE: reel <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      render                  Render a scene to a video file (or a folder of PNG
                              frames).
      batch                   Render the jobs of a manifest: many scenes, variants
                              and formats, concurrently.
      concat                  Join segments (reel render --frames / --shard) into
                              one clip without re-encoding.
      still                   Render one frame of a scene to a PNG file.
      preview                 Preview a scene in the browser, following the file as
                              it is edited.
      sheet                   Render a contact sheet: frames of a scene in a grid,
                              each labelled with its time.
      presets                 List the shipped output presets (use one with reel
                              render --preset NAME).
      fonts                   List the installed fonts: family, style, PostScript
                              name and file.
      timeline                Print a layer's presentation value of one key path
                              over time.
      info                    Validate a scene and summarise it: canvas, timing,
                              layers and their animations.

      See 'reel help <subcommand>' for detailed help.
    """,
    "render": """
    OVERVIEW: Render a scene to a video file (or a folder of PNG frames).

    The format comes from the output's name: .mp4 (H.264), .mov (ProRes), .webm
    (VP9), .gif, .apng, .webp, or a folder name ending in / for a PNG sequence;
    --codec picks another codec the container holds (hevc or h264 in .mp4/.mov, av1
    in .mp4/.webm, prores-4444 in .mov). A transparent scene background gives a
    transparent clip in the formats with alpha (VP9, ProRes 4444, APNG, WebP, PNG;
    GIF one bit); the others composite over --matte. --preset applies named
    settings (reel presets lists them); options given here override it. The file is
    written under a temporary name and renamed when complete; on an error or Ctrl-C
    nothing is left behind. --rows renders a clip per row of a table, as a
    manifest's rows: job does (reel batch --help): reel render badge.yaml --rows
    people.csv -o "out/{name}.gif".

    USAGE: reel render [<options>] <scene> --output <file>

    ARGUMENTS:
      <scene>                 The scene file (JSON or YAML).

    SCENE:
      --fps <rate>            Frame rate, overriding the scene's: 30, 29.97 or
                              30000/1001.
      --var <name=value>      A value for a variable the scene declares
                              (repeatable): --var accent=#ff3b30 --var label=Save.
      --scale <factor>        Pixels per point, overriding the scene's scale.
      --width <pixels>        Output width in pixels (sets the scale, keeps the
                              aspect).
      --size <WxH>            Output size in pixels, e.g. 1920x1080: the clip
                              fitted and centred on its background.
      --duration <seconds>    Clip length in seconds, overriding the scene's.
      --speed <factor>        Playback speed: 0.25 renders a slowed-down clip four
                              times as long, at the same frame rate.

    ENCODING:
      --preset <name>         Output settings: a shipped preset name (reel presets)
                              or a preset file.
      --codec <name>          Codec (default: the output's; .mp4 is h264). (values:
                              h264, hevc, vp9, av1, prores, prores-4444, gif, apng,
                              webp, png)
      --chroma <format>       Chroma subsampling of YUV codecs. (values: 420, 422,
                              444)
      --bit-depth <bits>      Bits per sample of YUV codecs: 8 or 10.
      --crf <n>               Constant rate factor (h264/hevc 0–51, vp9/av1 0–63):
                              lower is better.
      --encoder-preset <name> Encoder speed preset: x264/x265 names (medium,
                              slow…), SVT-AV1 0–13.
      --loop <n>              GIF/APNG/WebP repeats after the first play: 0 loops
                              forever (default), N plays N+1 times, once plays once.
      --quality <q>           WebP quality, 0–100 (default 90).
      --lossless              Lossless WebP (for lossless H.264: --crf 0).
      --matte <color>         Colour under a transparent scene in formats without
                              alpha (default white).
      --flatten               Composite over the matte even in formats with alpha.
      --no-audio              Leave the scene's sound (its audio files, video
                              layers' sound) out.

    GIF:
      --colors <n>            GIF palette size, 2–255 (default 255).
      --dither <kind>         GIF dithering (default none). (values: bayer, none)
      --alpha-threshold <n>   GIF transparency: alpha below this (1–255, default
                              128) is transparent.
      --alpha-dither          GIF transparency by an ordered pattern instead of a
                              threshold (soft edges become a stipple).
      --tolerance <levels>    GIF lossy differencing: a pixel within this many
                              levels of what is shown keeps it (default 0, exact).
      --gif-lossy <n>         GIF lossy compression, 0–100: a pixel may take a
                              palette colour this many thousandths of Oklab
                              lightness from its own (20 ≈ one just-noticeable
                              difference; default 0, exact).
      --max-size <size>       GIF size budget: the best quality that fits, trying
                              lossy levels, fewer colours, half the frame rate (to
                              10 fps), then a smaller size.

    SEGMENTS:
      --frames <A-B>          Render only frames A to B (from 0, both included) as
                              a segment for reel concat.
      --shard <I/N>           Render shard I (from 0) of N equal parts as a segment
                              for reel concat, e.g. --shard 0/4 (with --rows: part
                              I of the rows).

    ROWS:
      --rows <table>          Render one clip per row of a CSV or JSON Lines table,
                              its columns the scene's variables; name the output
                              with {row}, {name} or a {column}.
      --jobs <n>              With --rows: clips rendered at once (default: the
                              cores).
      --force                 With --rows: render every row, even those whose clip
                              is up to date.
      --fail-fast             With --rows: stop at the first failure.
      --dry-run               With --rows: print the clips that would be rendered,
                              and render nothing.

    PERFORMANCE:
      --threads <n>           Rasterizer threads (default: all cores). The output
                              is the same for any value.
      --workers <n>           Frames rendered at once, ahead of the encoder
                              (default 2 on 2+ cores).
      --memory-limit <MiB>    Refuse up front a render whose frames in flight need
                              more memory than this (default: half the RAM).

    REPORTING:
      --progress <kind>       Progress on stderr: auto (a bar on a terminal, else
                              nothing), bar, json (a line per second), none.
                              (values: auto, bar, json, none; default: auto)
      --stats                 Print the peak resident memory and the time taken.
      -q, --quiet             Print nothing but errors.

    OPTIONS:
      -o, --output <file>     Output file, or folder/ for PNG frames.
      --sandbox               Read images only inside the scene's folder (for
                              render services; see docs/scene-format.md).
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "batch": """
    OVERVIEW: Render the jobs of a manifest: many scenes, variants and formats,
    concurrently.

    A manifest (YAML or JSON) lists jobs: a scene or a glob of scenes, its
    variables or named variants, and outputs (a path, or a path with a preset and
    settings). Paths are relative to the manifest; {scene}, {variant}, {job} and
    {variable} in an output path are filled in, and missing output folders are
    created.

      jobs:
        - scene: scenes/*.yaml
          outputs: ["out/{scene}.gif", {path: "out/{scene}.mp4", preset: web-mp4}]
        - scene: examples/star-button.yaml
          variants: {red: {accent: "#ff3b30"}, blue: {accent: "#007aff"}}
          outputs: [out/star-{variant}.gif]

    Outputs render concurrently on the machine's cores under one memory limit. A
    failing job does not stop the others (unless --fail-fast); the exit status is 1
    if any failed. Each finished output gets a record of its inputs beside it
    (.NAME.reel-batch): run the batch again and outputs whose scene, images,
    settings and Reel version are unchanged are skipped (--force renders them
    anyway), so a batch that was killed finishes what is left.

    USAGE: reel batch <manifest> [--jobs <n>] [--memory-limit <MiB>] [--force] [--fail-fast] [--sandbox] [--shard <I/N>] [--dry-run] [--progress <kind>] [--quiet]

    ARGUMENTS:
      <manifest>              The manifest file (YAML or JSON).

    OPTIONS:
      --jobs <n>              Outputs rendered at once (default: the manifest's
                              concurrency, else the cores).
      --memory-limit <MiB>    Memory for all renders together (default: the
                              manifest's, else half the RAM).
      --force                 Render every output, even those whose record says
                              they are up to date.
      --fail-fast             Stop at the first failure (outputs in progress are
                              stopped and not written).
      --sandbox               Confine the batch to the manifest's folder: scenes,
                              presets, images and outputs inside it, variables in
                              output paths plain names (for render services).
      --shard <I/N>           Render part I (from 0) of N of the expanded jobs, in
                              order (a table's rows split across machines).
      --dry-run               Print the expanded jobs and what would be rendered,
                              and render nothing.
      --progress <kind>       Progress on stderr: auto, bar, json (a line per
                              second), none. (values: auto, bar, json, none;
                              default: auto)
      -q, --quiet             Print nothing but errors and the summary.
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "concat": """
    OVERVIEW: Join segments (reel render --frames / --shard) into one clip without
    re-encoding.

    The segments may be given in any order (a glob such as seg-*.mp4 is fine): each
    file says which frames of the clip it holds, and together they must hold every
    frame once, encoded with the same settings. MP4, MOV and WebM packets are
    copied with their timestamps; GIF frames are copied in order (the shards of a
    GIF share the whole clip's palette); PNG sequence folders are gathered into one
    folder (-o joined/). Anything that does not fit is refused before writing.
    Segments are rendered silent: --sound-from adds the scene's sound, mixed once
    for the whole clip.

    Example:
      for i in 0 1 2 3; do reel render scene.yaml --shard $i/4 -o seg-$i.mp4 &
    done; wait
      reel concat seg-*.mp4 -o clip.mp4 --sound-from scene.yaml

    USAGE: reel concat <segments> ... --output <file> [--sound-from <scene>] [--quiet]

    ARGUMENTS:
      <segments>              The segment files (or PNG sequence folders).

    OPTIONS:
      -o, --output <file>     The joined clip (same format as the segments).
      --sound-from <scene>    The scene the segments were rendered from: its sound
                              (segments are silent) is mixed once and added to the
                              joined MP4, MOV or WebM.
      -q, --quiet             Print nothing but errors.
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "still": """
    OVERVIEW: Render one frame of a scene to a PNG file.

    The PNG keeps the alpha channel: a transparent background stays transparent.

    USAGE: reel still <scene> [--at <seconds>] --output <file> [--scale <factor>] [--width <pixels>] [--threads <n>] [--memory-limit <MiB>] [--sandbox]

    ARGUMENTS:
      <scene>                 The scene file (JSON or YAML), or an SVG file.

    OPTIONS:
      --at <seconds>          The time of the frame, in seconds from the start.
                              (default: 0.0)
      -o, --output <file>     Output file (.png).
      --scale <factor>        Pixels per point, overriding the scene's scale.
      --width <pixels>        The picture's width in pixels (the scale follows from
                              it; not with --scale).
      --threads <n>           Rasterizer threads (default: all cores).
      --memory-limit <MiB>    Memory the still may take (default: half the RAM);
                              its decoded pictures may take half of it (without
                              this option, 256 MiB).
      --sandbox               Read images only inside the scene's folder (for
                              render services; see docs/scene-format.md).
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "preview": """
    OVERVIEW: Preview a scene in the browser, following the file as it is edited.

    Serves one page on this machine: the frame at the current time, play and pause,
    a scrubber, the timeline of the scene's animations with its after: chains;
    pointing at the frame names the layer there, clicking outlines it. Saving the
    scene (or an image, SVG, Lottie or font it uses) shows the change within a
    second; a scene with an error keeps its last good frame and shows the error
    over it. Export renders the scene with a built-in preset to NAME-PRESET.EXT
    beside it, with reel render's progress. GET /frame?t=SECONDS&width=W returns
    the PNG reel still writes; GET /layers?t=SECONDS where each layer lies. Stop it
    with Ctrl-C.

    USAGE: reel preview <scene> [--port <port>] [--host <ip>] [--open]

    ARGUMENTS:
      <scene>                 The scene file (JSON or YAML), or an SVG file.

    OPTIONS:
      --port <port>           The port to listen on (0: any free port). (default:
                              4500)
      --host <ip>             The address to listen on (only this machine by
                              default). (default: 127.0.0.1)
      --open                  Open the page in the default browser.
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "sheet": """
    OVERVIEW: Render a contact sheet: frames of a scene in a grid, each labelled
    with its time.

    By default 12 frames spread evenly from the first frame to the last. --at picks
    the times instead (seconds, comma-separated). The sheet is a PNG written under
    a temporary name and renamed when complete.

    USAGE: reel sheet <scene> --output <file> [--count <n>] [--at <t1,t2,…>] [--columns <c>] [--scale <factor>] [--threads <n>] [--sandbox]

    ARGUMENTS:
      <scene>                 The scene file (JSON or YAML).

    OPTIONS:
      -o, --output <file>     Output file (.png).
      --count <n>             Number of frames, spread evenly over the clip
                              (default 12).
      --at <t1,t2,…>          Times of the frames in seconds, e.g. 0,0.25,0.5.
      --columns <c>           Frames per row (default: about square).
      --scale <factor>        Pixels per point, overriding the scene's scale.
      --threads <n>           Rasterizer threads (default: all cores).
      --sandbox               Read images only inside the scene's folder (for
                              render services; see docs/scene-format.md).
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "presets": """
    OVERVIEW: List the shipped output presets (use one with reel render --preset
    NAME).

    Each is a documented YAML file in the project's presets/ folder; --preset also
    takes a path to your own.

    USAGE: reel presets

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "fonts": """
    OVERVIEW: List the installed fonts: family, style, PostScript name and file.

    A text layer's font takes any of these names: a PostScript name
    (Inter-SemiBoldItalic), a family with an optional style (Inter, Inter Semi Bold
    Italic), or the path of a font file relative to the scene (fonts/Brand.otf). A
    family alone means its regular face. A font that is not installed is an error,
    never a silent substitute.

    USAGE: reel fonts [<pattern>] [--json]

    ARGUMENTS:
      <pattern>               Only the fonts whose family, style, full or
                              PostScript name contains this (any case).

    OPTIONS:
      --json                  Print a JSON array of objects with the keys family,
                              style, postScriptName and file.
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "timeline": """
    OVERVIEW: Print a layer's presentation value of one key path over time.

    Values: numbers as numbers, points [x, y], sizes [w, h], rects [x, y, w, h],
    colours [r, g, b, a] in 0…1, transforms as the 16 numbers m11…m44.

    Example:
      reel timeline examples/spring-button.yaml --layer button --key
    transform.scale --fps 30

    USAGE: reel timeline <scene> --layer <name> --key <keypath> [--at <t1,t2,…>] [--fps <rate>] [--format <format>]

    ARGUMENTS:
      <scene>                 The scene file (JSON).

    OPTIONS:
      --layer <name>          The layer's name.
      --key <keypath>         The key path, as in Core Animation (opacity,
                              position, transform.scale.x, strokeEnd…).
      --at <t1,t2,…>          Times in seconds, comma separated.
      --fps <rate>            Sample every frame at this rate over the clip instead.
      --format <format>       json or csv. (default: json)
      --version               Show the version.
      -h, --help              Show help information.
    """,
    "info": """
    OVERVIEW: Validate a scene and summarise it: canvas, timing, layers and their
    animations.

    USAGE: reel info <scene>

    ARGUMENTS:
      <scene>                 The scene file (JSON).

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.
    """,
]
