"""The series chart as a PNG for the group chat, drawn with Pillow from the series view-model.

The lines are the series page's chart (`series_view.chart`, pixel coordinates at this
image's size): the same totals, colours and loss line, no browser involved. The image
is a 32-colour palette PNG of a few tens of KB at most, drawn once per (series, version,
language) and kept (`companion.web.http.memory`).
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import TYPE_CHECKING

from companion.service.series import Series
from companion.web.present.numbers import minus
from companion.web.present.series_view import chart

if TYPE_CHECKING:  # Pillow is imported when a chart is drawn: an idle process need not load it
    from PIL import ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 340
CHART_TOP, CHART_HEIGHT = 44, 230
INK, MUTED, LINE, PAPER = (27, 27, 27), (110, 110, 110), (205, 205, 205), (255, 255, 255)
CACHE_ITEMS = 256


@functools.lru_cache(maxsize=4)
def font_bytes(path: str) -> bytes:
    """A WOFF2 font of the static folder as plain TrueType (Pillow's FreeType may not read WOFF2)."""
    from fontTools.ttLib import woff2  # type: ignore[import-untyped]  # WeasyPrint's dependency

    out = io.BytesIO()
    woff2.decompress(io.BytesIO(Path(path).read_bytes()), out)
    return out.getvalue()


def font(static_folder: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    name = "dejavu-sans-bold.woff2" if bold else "dejavu-sans.woff2"
    return ImageFont.truetype(io.BytesIO(font_bytes(str(Path(static_folder) / "fonts" / name))), size)


def hex_colour(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def fitted(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """`text`, shortened with "…" until it fits `width` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def dashed(draw: ImageDraw.ImageDraw, y: float, x0: float, x1: float, colour: tuple[int, int, int]) -> None:
    x = x0
    while x < x1:
        draw.line([(x, y), (min(x + 10, x1), y)], fill=colour, width=2)
        x += 16


def series_png(series: Series, title: str, static_folder: str) -> bytes:
    """The chart of the series' totals by round, its title on top and each player's total below."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    big, small = font(static_folder, 20, bold=True), font(static_folder, 14)
    draw.text((16, 12), fitted(draw, title, big, WIDTH - 32), font=big, fill=INK)
    plot = chart(series, width=WIDTH - 32, height=CHART_HEIGHT)
    ox, oy = 16, CHART_TOP
    draw.rectangle([ox, oy, ox + plot["width"], oy + plot["height"]], outline=LINE, width=1)
    draw.line([(ox, oy + plot["zero_y"]), (ox + plot["width"], oy + plot["zero_y"])], fill=LINE, width=1)
    dashed(draw, oy + plot["loss_y"], ox, ox + plot["width"], INK)
    draw.text((ox + 6, oy + plot["loss_y"] - 18), plot["loss_label"], font=small, fill=INK)
    for line in plot["lines"]:
        points = [tuple(float(v) for v in pair.split(",")) for pair in line["points"].split()]
        moved = [(ox + x, oy + y) for x, y in points]
        colour = hex_colour(line["colour"])
        if len(moved) > 1:
            draw.line(moved, fill=colour, width=4, joint="curve")
        x, y = moved[-1]
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=PAPER if line["left"] else colour, outline=colour, width=2)
    x, y = 16.0, float(CHART_TOP + CHART_HEIGHT + 14)
    st = series.standings
    for line in plot["lines"]:
        label = f"{line['name']} {minus(st.totals[line['name']])}"
        width = draw.textlength(label, font=small) + 30
        if x + width > WIDTH - 16:
            x, y = 16.0, y + 24
        draw.ellipse([x, y + 3, x + 12, y + 15], fill=hex_colour(line["colour"]))
        draw.text((x + 18, y), label, font=small, fill=INK if st.statuses[line["name"]].value == "playing" else MUTED)
        x += width
    out = io.BytesIO()
    image.quantize(colors=32, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out.getvalue()
