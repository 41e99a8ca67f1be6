#!/usr/bin/env python3
"""recommend -o html / -o svg / --report: well-formed, self-contained, escaped, and drawn.

Usage: report_page.py BINARY FIXTURES_DIR

- The SVG parses with Python's XML parser (xml.etree); the page with html.parser, every
  element closed in order, and its inline <svg> parses as XML too.
- Nothing external: no http(s): reference, no <script>, <link>, src=, href=, url( or @import;
  a Content-Security-Policy of default-src 'none' whose style hash is the page's stylesheet's.
- --report FILE writes the same page while stdout keeps its own format (JSON here).
- Untrusted text (a rule's reason full of markup) comes out as entities, never as markup.
- Headless Chromium renders the page and the SVG to PNGs (decoded here with zlib): not blank,
  and each point of the chart, drawn in its own palette colour, found as a blob of that colour.
- docs/recommend-tradeoff.svg is what its command prints.
Run through report_page.sh, which first requires chromium (tests/checkers/require.sh): a
missing checker fails the test.
"""
import base64
import hashlib
import html.parser
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

BINARY, FIXTURES = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1", "GPUADVISOR_TODAY": "2026-12-02"}
TRAINING = ["recommend", "training", "--model", "llama-2-7b", "--tokens", "1T",
            "--deadline", "30d", "--top", "3"]
INFERENCE = ["recommend", "inference", "--model", "llama-2-70b", "--qps", "5",
             "--ttft-ms", "2000", "--tpot-ms", "60", "--top", "6"]
VOID = {"meta", "br", "img", "hr", "input", "link"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(args, code=0):
    p = subprocess.run([BINARY] + args, capture_output=True, env=ENV, timeout=60)
    check(p.returncode == code, f"{args}: exit {p.returncode}, expected {code}: {p.stderr!r}")
    return p.stdout.decode("utf-8")


class Balance(html.parser.HTMLParser):
    """Every element closed, in order (the page is written that strictly)."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def self_contained(text, what, tags):
    """No element that loads anything, no attribute that points anywhere, no CSS import."""
    for tag, attrs in tags:
        check(tag not in ("script", "link", "img", "iframe", "object", "embed", "image", "use"),
              f"{what}: a <{tag}>")
        for name in attrs:
            check(name not in ("src", "href", "xlink:href", "srcset", "style") and
                  not name.startswith("on"), f"{what}: <{tag} {name}=...>")
    for style in re.findall(r"<style>(.*?)</style>", text, re.S):
        check("url(" not in style and "@import" not in style, f"{what}: the stylesheet loads")
    check("https:" not in text, f"{what}: an https: reference")
    check(text.count("http:") == text.count('"http://www.w3.org/2000/svg"'),
          f"{what}: an http: reference besides the SVG namespace")


def check_page(page, what):
    parser = Balance()
    parser.feed(page)
    parser.close()
    check(not parser.errors and not parser.stack, f"{what}: unbalanced: {parser.errors} {parser.stack}")
    check(page.startswith("<!DOCTYPE html>\n"), f"{what}: no doctype")
    self_contained(page, what, parser.tags)
    metas = [a for t, a in parser.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    check(len(metas) == 1, f"{what}: one CSP meta tag")
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    check(len(styles) == 1, f"{what}: one <style>")
    if metas and styles:
        digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
        csp = metas[0]["content"]
        check(csp.startswith("default-src 'none';"), f"{what}: CSP {csp}")
        check(f"style-src 'sha256-{digest}'" in csp, f"{what}: CSP hash is not the stylesheet's")
    inline = re.findall(r"<svg .*?</svg>", page, re.S)
    check(len(inline) == 1, f"{what}: one inline svg")
    ET.fromstring(inline[0])  # raises on broken XML
    return parser


def points_of(svg_text):
    """(fill, cx, cy) of each point drawn, in order: circles and tier diamonds, legend left out."""
    root = ET.fromstring(svg_text)
    points = []
    for e in root.iter():
        tag = e.tag.split("}")[-1]
        fill = e.get("fill", "")
        if not re.fullmatch(r"#[0-9a-f]{6}", fill) or fill == "#ffffff":
            continue
        if tag == "circle":
            points.append((fill, float(e.get("cx")), float(e.get("cy"))))
        elif tag == "path" and e.get("d", "").endswith("z"):
            m = re.match(r"M([\d.]+),([\d.]+)", e.get("d"))
            points.append((fill, float(m.group(1)), float(m.group(2)) + 10))
    return points


def decode_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return rows


def blobs(rows, colour, minimum=20):
    """Connected groups (4-neighbour) of pixels within 3 of `colour`, of at least `minimum`."""
    target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    near = {(x, y) for y, row in enumerate(rows) for x, px in enumerate(row)
            if all(abs(px[i] - target[i]) <= 3 for i in range(3))}
    count = 0
    while near:
        stack, size = [near.pop()], 0
        while stack:
            x, y = stack.pop()
            size += 1
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in near:
                    near.remove(n)
                    stack.append(n)
        count += size >= minimum
    return count


def check_rendering(url, svg_text, what, size):
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "out.png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={tmp}/profile", f"--screenshot={png}",
                        f"--window-size={size}", url],
                       capture_output=True, timeout=60, cwd=tmp)
        check(os.path.exists(png), f"{what}: chromium wrote no PNG")
        if not os.path.exists(png):
            return
        rows = decode_png(png)
    pixels = [px for row in rows for px in row]
    ink = sum(1 for px in pixels if px != (255, 255, 255))
    check(ink > len(pixels) // 50, f"{what}: blank rendering ({ink} non-white pixels)")
    check(len(set(pixels)) > 50, f"{what}: {len(set(pixels))} colours only")
    points = points_of(svg_text)
    check(len(points) >= 3, f"{what}: {len(points)} points in the chart")
    # A point is visible unless a later one is drawn over its middle.
    visible = [p for i, p in enumerate(points)
               if not any(abs(q[1] - p[1]) < 8 and abs(q[2] - p[2]) < 8 for q in points[i + 1:])]
    for colour in sorted({p[0] for p in visible}):
        expected = sum(1 for p in visible if p[0] == colour)
        found = blobs(rows, colour)
        check(found == expected, f"{what}: {found} blob(s) of {colour}, expected {expected}")


def main():
    svg = run(["-o", "svg"] + TRAINING)
    tree = ET.fromstring(svg.encode())
    check(svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns='), "svg: header")
    self_contained(svg, "svg", [(e.tag.split("}")[-1], e.attrib) for e in tree.iter()])
    page = run(["-o", "html"] + TRAINING)
    check_page(page, "html")
    check(page.count("<tr>") == 1 + 3, "html: the header row and the 3 rows")
    check("Tier: Rule doc-training-1b-10b" in page, "html: the tier line")
    check("<h2>Assumptions (built in)</h2>" in page, "html: the assumptions")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.html")
        document = run(["-o", "json"] + TRAINING + ["--report", report])
        check(document.startswith('{\n  "schema_version": 2'), "--report: stdout is not the JSON")
        check(open(report, encoding="utf-8").read() == page, "--report: not the -o html page")
    hostile = run(["-o", "html"] + TRAINING + ["--explain", "--rules", os.path.join(HERE, "hostile_rules.yaml")])
    check_page(hostile, "hostile")
    check("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x" in hostile, "hostile: not escaped")
    check("&amp; &quot;quoted&quot; &apos;single&apos;" in hostile, "hostile: quotes not escaped")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "page.html")
        open(path, "w", encoding="utf-8").write(page)
        check_rendering("file://" + path, re.search(r"<svg .*?</svg>", page, re.S).group(0),
                        "html in chromium", "1200,900")
        latency = run(["-o", "svg"] + INFERENCE)
        path = os.path.join(tmp, "chart.svg")
        open(path, "w", encoding="utf-8").write(latency)
        check_rendering("file://" + path, latency, "inference svg in chromium", "960,480")
    documented = run(["-o", "svg", "recommend", "training", "--model", "llama-2-7b", "--tokens",
                      "1T", "--deadline", "30d", "--top", "8"])
    with open(os.path.join(HERE, "..", "..", "docs", "recommend-tradeoff.svg"), encoding="utf-8") as f:
        check(f.read() == documented, "docs/recommend-tradeoff.svg is not what the command prints; "
              "regenerate it as docs/recommend.md says (GPUADVISOR_TODAY=2026-12-02)")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


sys.exit(main())
