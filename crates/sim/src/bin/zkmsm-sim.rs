//! Stand-alone front end of the model: `zkmsm-sim [ARGS] [sweep|thesis]`,
//! the same arguments as `zkmsm sim`.

use clap::Parser;

#[derive(Parser)]
#[command(name = "zkmsm-sim", version, about = "Cycle-level model of MSM accelerator hardware")]
struct Cli {
    #[command(flatten)]
    sim: zkmsm_sim::SimArgs,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = zkmsm_sim::run(cli.sim) {
        if e.is_broken_pipe() {
            // a closed pipe ends the command quietly, as Unix tools do
            std::process::exit(141);
        }
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
