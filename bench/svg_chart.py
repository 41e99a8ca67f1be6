"""A log-log SVG chart of time against offers from bench/scale.py's results (no plotting
library needed)."""
import math

SERIES = [  # (label, colour, how to pick the row)
    ("gpuadvisor recommend training, cache warm", "#1b7837",
     lambda r: r["tool"] == "gpuadvisor" and r["setup"] == "alone"
     and r["command"] == "recommend training" and r["cache"] == "warm"),
    ("gpuadvisor list offers -o json, cache warm", "#5aae61",
     lambda r: r["tool"] == "gpuadvisor" and r["setup"] == "alone"
     and r["command"].startswith("list") and r["cache"] == "warm"),
    ("gpuadvisor list offers -o json, no cache", "#a6dba0",
     lambda r: r["tool"] == "gpuadvisor" and r["setup"] == "alone"
     and r["command"].startswith("list") and r["cache"] == "off"),
    ("yaml-cpp LoadFile + walk", "#762a83", lambda r: r["tool"].startswith("yaml-cpp")),
    ("PyYAML CSafeLoader + walk", "#c2a5cf", lambda r: r["tool"].startswith("PyYAML")),
]
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 760, 440, 70, 300, 30, 50


def write_chart(results, path):
    points = {label: [] for label, _, _ in SERIES}
    for size in results:
        for label, _, pick in SERIES:
            for row in size["rows"]:
                if pick(row):
                    points[label].append((size["offers"], row["ms"]))
    values = [p for series in points.values() for p in series]
    if not values:
        return
    x_lo, x_hi = math.log10(min(x for x, _ in values)), math.log10(max(x for x, _ in values))
    y_lo = math.floor(math.log10(min(y for _, y in values)))
    y_hi = math.ceil(math.log10(max(y for _, y in values)))
    x_hi = max(x_hi, x_lo + 1)
    y_hi = max(y_hi, y_lo + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(x):
        return LEFT + (math.log10(x) - x_lo) / (x_hi - x_lo) * plot_w

    def sy(y):
        return TOP + plot_h - (math.log10(y) - y_lo) / (y_hi - y_lo) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="18" font-size="14">Whole-process time against catalog size '
           '(log-log, median)</text>']
    for e in range(int(y_lo), int(y_hi) + 1):
        y = sy(10**e)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{format_ms(10**e)}</text>')
    for size in results:
        x = sx(size["offers"])
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">'
                   f'{format_offers(size["offers"])}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
               'offers in the catalog</text>')
    for index, (label, colour, _) in enumerate(SERIES):
        series = sorted(points[label])
        if not series:
            continue
        line = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in series)
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in series:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>')
        ly = TOP + 20 + index * 22
        out.append(f'<line x1="{WIDTH - RIGHT + 15}" y1="{ly}" x2="{WIDTH - RIGHT + 35}" '
                   f'y2="{ly}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 40}" y="{ly + 4}">{label}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")


def format_ms(ms):
    return f"{ms / 1000:g} s" if ms >= 1000 else f"{ms:g} ms"


def format_offers(n):
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}k" if n >= 1000 else str(n)
