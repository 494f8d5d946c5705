//! `zkmsm bench --plot FILE.svg`: MSM time against N, one line per backend,
//! both axes logarithmic.

use crate::error::CliError;
use crate::output::Output;
use plotters::prelude::*;

/// Median MSM times: (backend label, [(log2 N, ms)]) in the order first seen.
#[derive(Default)]
pub struct Series(Vec<(String, Vec<(u32, f64)>)>);

impl Series {
    pub fn add(&mut self, label: String, log_n: u32, ms: f64) {
        match self.0.iter_mut().find(|(l, _)| *l == label) {
            Some((_, v)) => v.push((log_n, ms)),
            None => self.0.push((label, vec![(log_n, ms)])),
        }
    }
}

/// Draw the plot and write it to `out` (opened before the benchmark, so a
/// bad path fails first), whole or not at all.
pub fn draw(out: Output, title: &str, series: &Series) -> Result<(), CliError> {
    let path = out.name().to_path_buf();
    let err = |what: String| CliError::Plot { path: path.clone(), what };
    let points = series.0.iter().flat_map(|(_, v)| v.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (u32::MAX, 0u32, f64::INFINITY, 0f64);
    for &(k, ms) in points {
        (x0, x1, y0, y1) = (x0.min(k), x1.max(k), y0.min(ms), y1.max(ms));
    }
    if x0 > x1 {
        return Err(err("no measurements to plot".into()));
    }
    let (y0, y1) = ((y0 * 0.8).max(1e-3), (y1 * 1.25).max(1e-2));
    // render in memory, then write: a write failure is reported, not lost
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(x0 as f64 - 0.25..x1 as f64 + 0.25, (y0..y1).log_scale())
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("N (points)")
            .y_desc("MSM time (ms)")
            .x_labels((x1 - x0 + 1) as usize)
            .x_label_formatter(&|x| format!("2^{}", x.round() as i64))
            .y_label_formatter(&|y| format!("{y}"))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        for (i, (label, v)) in series.0.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let data: Vec<(f64, f64)> = v.iter().map(|&(k, ms)| (k as f64, ms)).collect();
            chart
                .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
                .map_err(|e| err(e.to_string()))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
            chart
                .draw_series(data.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| err(e.to_string()))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(e.to_string()))?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    out.write_whole(svg.as_bytes())
}
