//! A minimal SVG line chart (no dependency, no fonts needed).

use std::fmt::Write;

/// One line of a chart.
pub struct Series {
    /// The legend's label.
    pub name: String,
    /// The (x, y) points, in drawing order.
    pub points: Vec<(f64, f64)>,
}

const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..=n).map(|i| lo + (hi - lo) * i as f64 / n as f64).collect()
}

fn fmt_num(v: f64) -> String {
    if v.abs() >= 1e4 || (v != 0.0 && v.abs() < 1e-2) {
        format!("{v:.2e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// Render a line chart; `log_y` plots log10 of the values.
pub fn line_chart(title: &str, xlabel: &str, ylabel: &str, series: &[Series], log_y: bool) -> String {
    let (w, h) = (760.0, 480.0);
    let (l, r, t, b) = (90.0, 170.0, 40.0, 60.0);
    let tr = |y: f64| if log_y { y.max(1e-300).log10() } else { y };
    let pts = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(tr(y));
        y1 = y1.max(tr(y));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 == x0 {
        x1 = x0 + 1.0;
    }
    if y1 == y0 {
        y1 = y0 + 1.0;
    }
    let pad = (y1 - y0) * 0.05;
    let (y0, y1) = (y0 - pad, y1 + pad);
    let sx = |x: f64| l + (x - x0) / (x1 - x0) * (w - l - r);
    let sy = |y: f64| h - b - (tr(y) - y0) / (y1 - y0) * (h - t - b);
    let syr = |ty: f64| h - b - (ty - y0) / (y1 - y0) * (h - t - b);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="24" text-anchor="middle" font-size="15">{title}</text>"#, w / 2.0);
    for tx in ticks(x0, x1, 8) {
        let px = sx(tx);
        let _ = writeln!(
            s,
            r##"<line x1="{px:.1}" y1="{t}" x2="{px:.1}" y2="{}" stroke="#ddd"/><text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"##,
            h - b,
            h - b + 16.0,
            fmt_num(tx)
        );
    }
    for ty in ticks(y0, y1, 6) {
        let py = syr(ty);
        let label = if log_y { fmt_num(10f64.powf(ty)) } else { fmt_num(ty) };
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{label}</text>"##,
            w - r,
            l - 6.0,
            py + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{l}" y="{t}" width="{}" height="{}" fill="none" stroke="black"/>"#,
        w - l - r,
        h - t - b
    );
    let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{xlabel}</text>"#, l + (w - l - r) / 2.0, h - 15.0);
    let _ = writeln!(
        s,
        r#"<text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">{ylabel}{}</text>"#,
        t + (h - t - b) / 2.0,
        t + (h - t - b) / 2.0,
        if log_y { " (log scale)" } else { "" }
    );
    for (k, se) in series.iter().enumerate() {
        let col = COLORS[k % COLORS.len()];
        let path: Vec<String> = se.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
        let _ = writeln!(s, r#"<polyline fill="none" stroke="{col}" stroke-width="2" points="{}"/>"#, path.join(" "));
        for &(x, y) in &se.points {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{col}"/>"#, sx(x), sy(y));
        }
        let ly = t + 10.0 + 18.0 * k as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{col}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            w - r + 10.0,
            w - r + 30.0,
            w - r + 35.0,
            ly + 4.0,
            se.name
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_series() {
        let s =
            line_chart("t", "x", "y", &[Series { name: "a".into(), points: vec![(1.0, 10.0), (2.0, 100.0)] }], true);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<circle").count(), 2);
        assert!(s.contains("polyline"));
    }
}
