//! Progress bars on standard error for long work (reading and validating
//! points, precomputation, generation), drawn only when standard error is a
//! terminal: a pipe or a log file gets the plain lines only.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

fn shown() -> bool {
    std::io::stderr().is_terminal()
}

/// A bar counting `unit`s; its length may be set later.
pub fn bar(message: &'static str, unit: &str) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(&format!(
        "{{msg}} [{{bar:40}}] {{human_pos}}/{{human_len}} {unit} ({{elapsed}}, eta {{eta}})"
    ))
    .expect("valid template")
    .progress_chars("=> ");
    ProgressBar::new(0).with_style(style).with_message(message)
}

/// A spinner with the elapsed time, for work that reports no progress.
pub fn spinner(message: String) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner()
        .with_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"))
        .with_message(message);
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// The spinner of init, the points set up on the backend (with
/// `--precompute M`, its M shifted copies).
pub fn preparing(precompute: Option<u32>) -> ProgressBar {
    spinner(match crate::contract::fixed_base(precompute) {
        Some(m) => format!("preparing the points (fixed-base, {m} shifted copies)"),
        None => "preparing the points".into(),
    })
}
