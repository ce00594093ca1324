#!/usr/bin/env python3
"""Makes demo-music.m4a, the music under examples/demo-video.yaml: eight seconds of a soft chord pad
(C, A minor, F, G; two seconds each) with a plucked root on every half second, synthesized by FFmpeg's
aevalsrc from the expression built here (written for Reel, under the repository's licence). Run from
the repository's root:

    python3 examples/assets/demo-music.py
"""
import subprocess

CHORDS = [(261.63, 329.63, 392.00), (220.00, 261.63, 329.63), (174.61, 220.00, 261.63), (196.00, 246.94, 293.66)]


def note(i):
    """Frequency i of the chord in force at t, as an aevalsrc expression."""
    expression = str(CHORDS[3][i])
    for k in (2, 1, 0):
        expression = f"if(eq(mod(floor(t/2),4),{k}),{CHORDS[k][i]},{expression})"
    return expression


pad = "+".join(f"sin(2*PI*{note(i)}*t)" for i in range(3))
swell = "(1-exp(-12*mod(t,2)))*(0.55+0.45*exp(-1.2*mod(t,2)))"
pluck = f"0.5*sin(2*PI*2*{note(0)}*t)*exp(-6*mod(t,0.5))"
expression = f"0.09*({pad})*{swell}+0.12*{pluck}"
subprocess.run(
    ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
     f"aevalsrc='{expression}':s=48000:d=8,aformat=channel_layouts=stereo",
     "-c:a", "aac", "-b:a", "64k", "-map_metadata", "-1", "-fflags", "+bitexact",
     "examples/assets/demo-music.m4a"],
    check=True)
