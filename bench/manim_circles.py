# The 400-circle benchmark scene for Manim Community, written for Reel's benchmark (scripts/bench.sh):
# the same scene as bench/circles.yaml and ../shared/bench/manim_circles.py — 400 circles of radius
# 0.1 on a circle of radius 3, 0.0157 rad apart, fill #eecd34, stroke #e76b39 width 3, turning 2 rad
# and growing 1.5× over 2 s, linearly, on #101418. Rendered with
#   manim render -qh --fps 60 --disable_caching bench/manim_circles.py Circles
# (1920×1080; Manim encodes with x264 preset medium, CRF 23).
import math

from manim import ORIGIN, Circle, Rotate, Scene, VGroup, linear


class Circles(Scene):
    def construct(self):
        self.camera.background_color = "#101418"
        dots = VGroup(
            *[
                Circle(radius=0.1, color="#e76b39", stroke_width=3, fill_color="#eecd34", fill_opacity=1).move_to(
                    [3 * math.cos(i * 0.0157), 3 * math.sin(i * 0.0157), 0]
                )
                for i in range(400)
            ]
        )
        self.add(dots)
        self.play(Rotate(dots, angle=2, about_point=ORIGIN), dots.animate.scale(1.5), run_time=2, rate_func=linear)
