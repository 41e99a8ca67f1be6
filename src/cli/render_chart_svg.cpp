#include "render_chart_svg.hpp"

#include "chart_axis.hpp"
#include "render_validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpuadvisor::cli {

namespace {

// Tableau 10: told apart by most eyes; none is used for anything else on the chart or the page.
constexpr std::array<std::string_view, 10> k_palette{"#4e79a7",
                                                     "#f28e2b",
                                                     "#e15759",
                                                     "#76b7b2",
                                                     "#59a14f",
                                                     "#edc948",
                                                     "#b07aa1",
                                                     "#ff9da7",
                                                     "#9c755f",
                                                     "#bab0ac"};

// The plot area inside the drawing (pixels), the legend to its right.
constexpr double k_width = 960, k_height = 480;
constexpr double k_left = 90, k_right = 700, k_top = 50, k_bottom = 400;

struct Point {
    const Candidate* row = nullptr;
    double x = 0;
    double y = 0;
    bool tier = false; // the best row of a prefer rule #1 does not meet
};

// Each row with an x (hours, latency or, for kinds ranked on cost alone, its rank) and the
// tier rows below the top; a tier row already shown is marked where it is.
std::vector<Point> chart_points(const RecommendReport& report) {
    const WorkloadKind kind = report.workload->kind;
    auto x_of = [&](const Candidate& c) -> std::optional<double> {
        if (is_finite_work(kind)) {
            return c.hours;
        }
        return kind == WorkloadKind::inference ? c.estimate->latency_ms : c.rank;
    };
    std::vector<Point> points;
    auto add = [&](const Candidate& c, bool tier) {
        if (const auto x = x_of(c); x && std::isfinite(*x)) { // (an axis needs finite values)
            points.push_back({&c, *x, static_cast<double>(c.total_micros) / 1e6, tier});
        }
    };
    for (const Candidate& c : report.result->recommendations) {
        add(c, false);
    }
    for (const PreferredTier& tier : report.result->tiers) {
        const auto shown = std::find_if(points.begin(), points.end(), [&](const Point& p) {
            return p.row->rank == tier.best.rank;
        });
        if (shown != points.end()) {
            shown->tier = true;
        } else {
            add(tier.best, true);
        }
    }
    return points;
}

std::string x_title(const RecommendReport& report, const Axis& axis) {
    const WorkloadKind kind = report.workload->kind;
    const std::string title = is_finite_work(kind)              ? "Time to finish (hours)"
                              : kind == WorkloadKind::inference ? "Latency (ms)"
                                                                : "Rank";
    return axis.log ? title + ", log scale" : title;
}

std::string y_title(const RecommendReport& report, const Axis& axis) {
    const std::string title =
        fmt::format("{} ({})",
                    is_finite_work(report.workload->kind) ? "Total cost" : "Cost per month",
                    xml_text(report.constraints->currency));
    return axis.log ? title + ", log scale" : title;
}

void draw_axes(const Axis& x, const Axis& y, const RecommendReport& report, std::string& svg) {
    svg += "<g font-size=\"12\" fill=\"#222\">\n";
    for (const double t : x.ticks) {
        const double px = k_left + x.fraction(t) * (k_right - k_left);
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" "
                           "stroke=\"#e6e6e6\"/>\n<text x=\"{0:.1f}\" y=\"{3}\" "
                           "text-anchor=\"middle\">{4}</text>\n",
                           px,
                           k_top,
                           k_bottom,
                           k_bottom + 18,
                           tick_label(t));
    }
    for (const double t : y.ticks) {
        const double py = k_bottom - y.fraction(t) * (k_bottom - k_top);
        svg += fmt::format("<line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\" "
                           "stroke=\"#e6e6e6\"/>\n<text x=\"{3}\" y=\"{4:.1f}\" "
                           "text-anchor=\"end\">{5}</text>\n",
                           py,
                           k_left,
                           k_right,
                           k_left - 8,
                           py + 4,
                           tick_label(t));
    }
    svg += fmt::format("<path d=\"M{0},{1} V{2} H{3}\" fill=\"none\" stroke=\"#000\"/>\n"
                       "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">{6}</text>\n"
                       "<text transform=\"translate(20 {7}) rotate(-90)\" "
                       "text-anchor=\"middle\">{8}</text>\n</g>\n",
                       k_left,
                       k_top,
                       k_bottom,
                       k_right,
                       (k_left + k_right) / 2,
                       k_bottom + 42,
                       x_title(report, x),
                       (k_top + k_bottom) / 2,
                       y_title(report, y));
}

// A circle; a ring round it on the front; a diamond for a tier row.
std::string marker(double px, double py, std::string_view fill, bool front, bool tier) {
    const std::string stroke =
        front ? "stroke=\"#000\" stroke-width=\"2.5\"" : "stroke=\"#666\" stroke-width=\"1\"";
    if (tier) {
        return fmt::format("<path d=\"M{0:.1f},{1:.1f} l10,10 l-10,10 l-10,-10 z\" fill=\"{2}\" "
                           "{3}/>",
                           px,
                           py - 10,
                           fill,
                           stroke);
    }
    return fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"7\" fill=\"{}\" {}/>", px, py, fill, stroke);
}

// What each mark means, then the rule of each tier row.
void draw_legend(const RecommendReport& report, bool has_speed, std::string& svg) {
    const double x = k_right + 30;
    const std::string front =
        fmt::format("on the cost-{} front",
                    report.workload->kind == WorkloadKind::inference ? "latency" : "time");
    std::vector<std::pair<std::string, std::string>> entries{
        {marker(x + 10, 0, "#fff", false, false), "a configuration (#rank)"}};
    if (has_speed) {
        entries.emplace_back(marker(x + 10, 0, "#fff", true, false), front);
        entries.emplace_back(
            fmt::format("<path d=\"M{},0 h20\" stroke=\"#444\" stroke-width=\"1.5\"/>", x),
            "the front");
    }
    if (!report.result->tiers.empty()) {
        entries.emplace_back(marker(x + 10, 0, "#fff", false, true), "the documents' tier");
    }
    svg += fmt::format("<g font-size=\"12\" fill=\"#222\">\n<text x=\"{}\" y=\"{}\" "
                       "font-weight=\"bold\">Legend</text>\n",
                       x,
                       k_top + 10);
    double y = k_top + 36;
    for (const auto& [mark, text] : entries) {
        svg +=
            fmt::format("<g transform=\"translate(0 {})\">{}<text x=\"{}\" y=\"4\">{}</text></g>\n",
                        y,
                        mark,
                        x + 28,
                        text);
        y += 26;
    }
    for (const PreferredTier& tier : report.result->tiers) {
        svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\">#{}: rule {}</text>\n",
                           x,
                           y,
                           tier.best.rank,
                           xml_text(tier.rule->id));
        y += 16;
    }
    svg += "</g>\n";
}

} // namespace

std::string_view chart_point_colour(std::size_t n) {
    return k_palette[n % k_palette.size()];
}

std::string recommend_chart_svg(const RecommendReport& report, bool standalone) {
    const std::vector<Point> points = chart_points(report);
    std::vector<double> xs;
    std::vector<double> ys;
    for (const Point& p : points) {
        xs.push_back(p.x);
        ys.push_back(p.y);
    }
    std::string svg = fmt::format("{}<svg {}width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                                  "font-family=\"sans-serif\" role=\"img\">\n",
                                  standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "",
                                  standalone ? "xmlns=\"http://www.w3.org/2000/svg\" " : "",
                                  k_width,
                                  k_height,
                                  k_width,
                                  k_height);
    const WorkloadKind kind = report.workload->kind;
    const bool finite = is_finite_work(kind);
    const bool has_speed = finite || kind == WorkloadKind::inference;
    const std::string title =
        has_speed
            ? fmt::format("Cost against {}: {} row(s) of the ranking",
                          finite ? "time" : "latency",
                          points.size())
            : fmt::format("Cost by rank: {} row(s) of the ranking ({} has no time to rank on)",
                          points.size(),
                          to_string(kind));
    svg += fmt::format("<title>{0}</title>\n<rect width=\"{1}\" height=\"{2}\" fill=\"#fff\"/>\n"
                       "<text x=\"{3}\" y=\"28\" font-size=\"15\" fill=\"#222\">{0}</text>\n",
                       title,
                       k_width,
                       k_height,
                       k_left);
    if (points.empty()) {
        return svg + "</svg>\n";
    }
    const Axis x = make_axis(xs, has_speed); // (a rank is never on a log scale)
    const Axis y = make_axis(ys, true);
    draw_axes(x, y, report, svg);
    auto px = [&](const Point& p) {
        return k_left + x.fraction(p.x) * (k_right - k_left);
    };
    auto py = [&](const Point& p) {
        return k_bottom - y.fraction(p.y) * (k_bottom - k_top);
    };
    // The planner's front flags (a kind ranked on cost alone has no front).
    std::vector<const Point*> front;
    for (const Point& p : points) {
        if (p.row->pareto && has_speed) {
            front.push_back(&p);
        }
    }
    std::sort(front.begin(), front.end(), [](const Point* a, const Point* b) {
        return std::tie(a->x, a->y, a->row->rank) < std::tie(b->x, b->y, b->row->rank);
    });
    if (front.size() > 1) { // a staircase: what the next-faster row costs more
        std::string d = fmt::format("M{:.1f},{:.1f}", px(*front[0]), py(*front[0]));
        for (std::size_t i = 1; i < front.size(); ++i) {
            d += fmt::format(" H{:.1f} V{:.1f}", px(*front[i]), py(*front[i]));
        }
        svg +=
            fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\"/>\n", d);
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        const bool on_front = std::find(front.begin(), front.end(), &p) != front.end();
        svg += fmt::format("<g>{}<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" "
                           "fill=\"#222\">#{}</text></g>\n",
                           marker(px(p), py(p), chart_point_colour(i), on_front, p.tier),
                           px(p) + 10,
                           py(p) - 9,
                           p.row->rank);
    }
    draw_legend(report, has_speed, svg);
    return svg + "</svg>\n";
}

} // namespace gpuadvisor::cli
