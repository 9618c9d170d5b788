"""Contact sheets of the figure review (reports/review.py): the figures of a paper's
pages, cut from the screenshots of those pages, laid out in a grid and captioned with
each page's id, for a person to look over one paper at a time.

Each thumbnail is the page's figures exactly as the browser drew them (no resampling), so
a legend that is hard to read on a sheet is as hard to read on the page. A paper that
does not fit on one sheet of ``max_height`` pixels goes on several (``bns-1.png``,
``bns-2.png``, ...) rather than being shrunk. Beside each sheet, ``<sheet>.json`` says
where each thumbnail and caption lie (for tests and for tools that point into a sheet).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

GAP = 24  # pixels between thumbnails, and around the sheet
CAPTION = 46  # pixels above each thumbnail for its caption
BACKGROUND = (222, 224, 228)  # grey, so that each white page region shows its edges
INK, ALERT = (20, 20, 20), (170, 0, 0)


@dataclass
class Cell:
    """One thumbnail: ``image`` (a file), its caption, and whether the caption is a warning."""

    id: str
    image: Path
    caption: str
    alert: bool = False


def _font(size: int) -> ImageFont.FreeTypeFont:
    # matplotlib ships DejaVu Sans, so a caption font exists wherever the figures were drawn
    from matplotlib import font_manager

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans", weight="bold"))
    return ImageFont.truetype(path, size)


def _rows(sizes: list[tuple[int, int]], columns: int) -> list[list[int]]:
    """Cell indices, row by row."""
    return [list(range(i, min(i + columns, len(sizes)))) for i in range(0, len(sizes), columns)]


def _row_height(sizes, row) -> int:
    return CAPTION + max(sizes[i][1] for i in row)


def split(sizes: list[tuple[int, int]], columns: int, max_height: int) -> list[list[list[int]]]:
    """The sheets: rows of cell indices, as many rows on a sheet as fit in ``max_height``
    pixels (at least one row, however tall)."""
    sheets, current, height = [], [], GAP
    for row in _rows(sizes, columns):
        h = _row_height(sizes, row) + GAP
        if current and height + h > max_height:
            sheets.append(current)
            current, height = [], GAP
        current.append(row)
        height += h
    if current:
        sheets.append(current)
    return sheets


def _draw_sheet(cells: list[Cell], images: list[Image.Image], rows: list[list[int]], columns: int,
                base: int) -> tuple[Image.Image, list[dict]]:
    """One sheet and where each of its cells lies. ``base``: index of its first cell."""
    width = max(im.width for im in images)
    heights = [CAPTION + max(images[i - base].height for i in row) for row in rows]
    sheet = Image.new("RGB", (GAP + columns * (width + GAP), GAP + sum(h + GAP for h in heights)), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    font = _font(26)
    placed, y = [], GAP
    for row, h in zip(rows, heights):
        for col, i in enumerate(row):
            cell, im = cells[i], images[i - base]
            x = GAP + col * (width + GAP)
            draw.rectangle((x, y, x + width - 1, y + CAPTION - 1), fill=(255, 255, 255))
            draw.text((x + 10, y + CAPTION // 2), cell.caption, font=font, anchor="lm",
                      fill=ALERT if cell.alert else INK)
            sheet.paste(im, (x, y + CAPTION))
            placed.append({"id": cell.id, "caption": cell.caption, "alert": cell.alert,
                           "caption_box": [x, y, x + width, y + CAPTION],
                           "box": [x, y + CAPTION, x + im.width, y + CAPTION + im.height],
                           "image": str(cell.image)})
        y += h + GAP
    return sheet, placed


def write(cells: list[Cell], folder: Path, name: str, columns: int = 2, max_height: int = 6000) -> list[Path]:
    """The sheets of ``cells`` in ``folder``: ``<name>.png`` when they fit on one,
    ``<name>-1.png``, ``<name>-2.png``, ... otherwise; each with its ``.json``."""
    if not cells:
        return []
    sizes = []
    for cell in cells:
        with Image.open(cell.image) as im:
            sizes.append(im.size)
    sheets = split(sizes, columns, max_height)
    paths, base = [], 0
    for k, rows in enumerate(sheets, 1):
        ids = [i for row in rows for i in row]
        images = [Image.open(cells[i].image).convert("RGB") for i in ids]
        sheet, placed = _draw_sheet(cells, images, rows, columns, base)
        stem = name if len(sheets) == 1 else f"{name}-{k}"
        path = folder / f"{stem}.png"
        sheet.save(path, compress_level=1)  # about half the time of the default level, a little larger
        (folder / f"{stem}.json").write_text(json.dumps(
            {"sheet": path.name, "columns": columns, "rows": len(rows), "size": list(sheet.size),
             "cells": placed}, indent=1))
        paths.append(path)
        base += len(ids)
    return paths
