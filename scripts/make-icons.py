#!/usr/bin/env python3
"""Draws the dashboard's app icons (PNG) from the mark in Assets/icon.svg: a pulse line,
white on the accent blue. `any` icons have rounded corners; `maskable` ones fill the
square and keep the mark inside the central 60 % (the safe zone is 80 %).
Run from the repository: python3 scripts/make-icons.py"""
import math, os, struct, zlib

BLUE, WHITE = (0x0B, 0x5C, 0xAD), (0xFF, 0xFF, 0xFF)
LINE = [(3, 17), (10, 17), (13, 9), (18, 24), (21, 17), (29, 17)]  # in the SVG's 32 × 32 box
WIDTH = 2.5
OUT = "Sources/SADEServer/Dashboard/Assets/icons"


def distance(px, py, a, b):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def coverage(x, y, size, maskable):
    """How much of the pixel (x, y) the mark covers (0…1), and whether it is in the icon."""
    inside = 0
    ink = 0
    samples = 3
    for i in range(samples):
        for j in range(samples):
            u = (x + (i + 0.5) / samples) * 32 / size
            v = (y + (j + 0.5) / samples) * 32 / size
            if not maskable:
                r = 6
                cx, cy = min(max(u, r), 32 - r), min(max(v, r), 32 - r)
                if math.hypot(u - cx, v - cy) > r:
                    continue
            inside += 1
            if maskable:
                u, v = (u - 6.4) / 0.6, (v - 6.4) / 0.6
            if min(distance(u, v, a, b) for a, b in zip(LINE, LINE[1:])) <= WIDTH / 2:
                ink += 1
    return inside / samples**2, ink / samples**2


def png(size, maskable):
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            alpha, ink = coverage(x, y, size, maskable)
            mix = ink / alpha if alpha else 0
            row += bytes(round(b * (1 - mix) + w * mix) for b, w in zip(BLUE, WHITE)) + bytes([round(alpha * 255)])
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


os.makedirs(OUT, exist_ok=True)
for size in (192, 512):
    for maskable in (False, True):
        name = "%s-%d.png" % ("maskable" if maskable else "icon", size)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(png(size, maskable))
