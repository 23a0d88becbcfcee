//! `tps`: the TPS Planner model on the command line.
//!
//! ```text
//! tps eval SCENARIO|- [--table] [--analytic]    evaluate a scenario; JSON report (or a table) on stdout
//! tps presets [hardware|models|quant|engines|targets]   list preset ids
//! tps import FILE|DIR... [--table]              read benchmark result files (vLLM, SGLang, genai-perf,
//!                                               AIPerf, llmperf, llama-bench, vLLM /metrics)
//! tps compare SCENARIO FILE|DIR... [--table]    each measurement next to the model's prediction
//! tps diff A.json B.json [--table]               scenario B against scenario A: TPS, capacity, fleet, cost, energy
//! ```
//! Each subcommand has its own `--help`. Errors go to stderr (an invalid scenario naming the field); the exit
//! code is 2 for bad input or a bad command line, 1 for files that cannot be read (`CliError`).
//!
//! The argument parser (clap) is a native-only dependency, so the page's wasm does not carry it; built for
//! wasm32 (as `cargo test --target wasm32-unknown-unknown` builds every binary) this is an empty program.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    // src/bin/cli/render.rs (a directory without main.rs is not a binary target of its own).
    mod render;
    use clap::{Parser, Subcommand, ValueEnum};
    use render::*;
    use std::ffi::OsString;
    use std::io::Read;
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;
    use tps_planner::import;
    use tps_planner::model::quant;
    use tps_planner::plan::readout::group;
    use tps_planner::presets;
    use tps_planner::scenario::{Report, Scenario};

    /// How many tokens per second an LLM gives on given hardware, for one user and for a whole server: the TPS
    /// Planner model on the command line.
    #[derive(Debug, Parser)]
    #[command(name = "tps", version, arg_required_else_help = true, after_help = EXIT_CODES)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    const EXIT_CODES: &str = "Exit codes: 0 ok; 2 bad input (an invalid scenario, a file that is no benchmark result) or a bad command line; 1 a file or stdin that cannot be read.";

    #[derive(Debug, Subcommand)]
    enum Command {
        /// Evaluate a scenario: the JSON report on stdout, or a table for people
        #[command(
            after_help = "Exit status: 0 with a report, a model that does not fit included (its report says so: \"fits\": false under \"memory\", and its verdict); 1 for a file that cannot be read; 2 for a scenario that is not valid (the field named on stderr).\n\nExample: tps eval examples/h100-llama8b.json --table"
        )]
        Eval {
            /// The scenario (JSON, as the page's "Scenario JSON" shows it), or - to read it from stdin
            #[arg(value_name = "SCENARIO")]
            file: PathBuf,
            /// Print a table for people instead of the JSON report
            #[arg(long)]
            table: bool,
            /// Skip the serving simulation: the analytic steady state only, in microseconds (its percentiles are the
            /// steady step's, without the spread of lengths and arrivals or the waits of a busy queue: a sizing's
            /// TTFT wants the simulation)
            #[arg(long)]
            analytic: bool,
        },
        /// List the preset ids a scenario can name (every table, or one)
        Presets {
            /// Only this table
            #[arg(value_enum)]
            table: Option<PresetTable>,
        },
        /// Read benchmark result files (vLLM, SGLang, genai-perf, AIPerf, llmperf, llama-bench, vLLM /metrics)
        ///
        /// The format is detected from the content. In a folder every file is tried; those that are not results
        /// are skipped with a message on stderr, as are runs already read from another file or export.
        Import {
            /// Result files, or folders of them (- reads one from standard input)
            #[arg(value_name = "FILE|DIR", required = true)]
            paths: Vec<PathBuf>,
            /// Print a table for people instead of JSON
            #[arg(long)]
            table: bool,
        },
        /// Predict each measured run on the scenario's deployment at the run's own load and lengths
        ///
        /// Prints predicted, measured and the error per figure. Files are read as by `tps import`.
        #[command(after_help = "Example: tps compare examples/h100-llama8b.json tests/samples/vllm-bench-serve-sweep --table")]
        Compare {
            /// The scenario (JSON): the hardware, model, formats and engine to predict with
            #[arg(value_name = "SCENARIO")]
            scenario: PathBuf,
            /// Result files, or folders of them (- reads one from standard input)
            #[arg(value_name = "FILE|DIR", required = true)]
            paths: Vec<PathBuf>,
            /// Print a table for people instead of JSON
            #[arg(long)]
            table: bool,
        },
        /// Fit the scenario's engine efficiencies to measured runs of this deployment
        ///
        /// η_bw, η_kv, η_fl, the per-step overhead, the per-request front end (and the MoE efficiency for a MoE
        /// model), by bounded least squares on the log error of every figure the files hold. Prints the
        /// calibrated scenario (JSON, usable with `tps eval` and the page), or with --table the fitted values and
        /// the error per figure before and after.
        #[command(after_help = "Example: tps calibrate examples/h100-llama8b.json tests/samples/vllm-bench-serve-sweep --table")]
        Calibrate {
            /// The scenario (JSON) whose deployment the runs were measured on
            #[arg(value_name = "SCENARIO")]
            scenario: PathBuf,
            /// Result files, or folders of them (- reads one from standard input)
            #[arg(value_name = "FILE|DIR", required = true)]
            paths: Vec<PathBuf>,
            /// Print the fit for people instead of the calibrated scenario's JSON
            #[arg(long)]
            table: bool,
        },
        /// Compare scenario B with scenario A: one user alone, per-user and system TPS at the operating point, capacity at the
        /// target, servers for the fleet, cost per million tokens, the fleet's cost, purchase and power, and energy per token
        /// (A, B, B − A, B ÷ A)
        #[command(after_help = "Example: tps diff examples/meeting-2xh100.json examples/meeting-1xh200.json --table")]
        Diff {
            /// Scenario A (JSON), or - for stdin
            #[arg(value_name = "A")]
            a: PathBuf,
            /// Scenario B (JSON), or - for stdin
            #[arg(value_name = "B")]
            b: PathBuf,
            /// Print a table for people instead of JSON
            #[arg(long)]
            table: bool,
            /// Skip the serving simulation: the analytic steady state only, in microseconds (its percentiles are the
            /// steady step's, without the spread of lengths and arrivals or the waits of a busy queue: a sizing's
            /// TTFT wants the simulation)
            #[arg(long)]
            analytic: bool,
        },
    }

    /// The preset tables.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
    enum PresetTable {
        /// Devices: bandwidth, memory, dense FP16 TFLOPS
        Hardware,
        /// Models: parameters, layers, KV heads
        Models,
        /// Weight formats and KV cache dtypes
        Quant,
        /// Serving engines and their defaults
        Engines,
        /// Latency targets
        Targets,
    }

    impl PresetTable {
        fn name(self) -> &'static str {
            match self {
                Self::Hardware => "hardware",
                Self::Models => "models",
                Self::Quant => "quant",
                Self::Engines => "engines",
                Self::Targets => "targets",
            }
        }
    }

    /// Why `tps` failed; [`CliError::exit_code`] is the process's exit code.
    #[derive(Debug, thiserror::Error)]
    pub(crate) enum CliError {
        /// The command line: an unknown subcommand or option, a missing or extra argument (clap's message, with
        /// the usage).
        #[error("{0}")]
        Usage(#[from] clap::Error),
        /// Content that is not what it should be: an invalid scenario, a file that is no benchmark result.
        #[error("{0}")]
        Input(String),
        /// A file or stdin that cannot be read (or a report that cannot be written).
        #[error("{0}")]
        Io(String),
    }

    impl CliError {
        /// 2 for bad input or a bad command line, 1 for I/O errors.
        pub(crate) fn exit_code(&self) -> u8 {
            match self {
                Self::Usage(_) | Self::Input(_) => 2,
                Self::Io(_) => 1,
            }
        }
    }

    pub(crate) fn main() -> ExitCode {
        match run(std::env::args_os()) {
            Ok(out) => {
                // A reader that stops early (`tps eval --table s.json | head`) closes the pipe: that ends the
                // output, not in a panic (print! panicked with a backtrace on the broken pipe).
                use std::io::Write;
                match std::io::stdout().lock().write_all(out.as_bytes()) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        eprintln!("tps: cannot write the output: {e}");
                        ExitCode::from(1)
                    }
                    _ => ExitCode::SUCCESS,
                }
            }
            Err(e) => {
                match &e {
                    // clap's message starts with "error:" and ends with the usage and a pointer to --help.
                    CliError::Usage(u) => eprint!("{u}"),
                    CliError::Input(m) | CliError::Io(m) => eprintln!("tps: {m}"),
                }
                ExitCode::from(e.exit_code())
            }
        }
    }

    /// Runs the command line (`args` with the program name first); the text for stdout. `--help` and
    /// `--version` are output, not errors.
    fn run(args: impl IntoIterator<Item = OsString>) -> Result<String, CliError> {
        let cli = match Cli::try_parse_from(args) {
            Ok(cli) => cli,
            Err(e) if !e.use_stderr() => return Ok(e.render().to_string()),
            Err(e) => return Err(e.into()),
        };
        match cli.command {
            Command::Eval { file, table, analytic } => {
                let report = evaluate(&read_input(&file)?, analytic, None)?;
                if table {
                    Ok(render_table(&report))
                } else {
                    json(&*report.for_json())
                }
            }
            Command::Diff { a, b, table, analytic } => {
                if a == Path::new("-") && b == Path::new("-") {
                    return Err(CliError::Input("only one of A and B can be read from stdin (-)".into()));
                }
                let ra = evaluate(&read_input(&a)?, analytic, Some("A"))?;
                let rb = evaluate(&read_input(&b)?, analytic, Some("B"))?;
                let d = tps_planner::plan::diff(&ra, &rb);
                if table {
                    Ok(render_diff(&d))
                } else {
                    json(&d)
                }
            }
            Command::Presets { table } => Ok(presets_list(table)),
            Command::Import { paths, table } => {
                stdin_once(paths.iter())?;
                let measurements = read_measurements(&paths)?;
                if table {
                    Ok(render_measurements(&measurements))
                } else {
                    json(&measurements)
                }
            }
            Command::Calibrate { scenario: file, paths, table } => {
                stdin_once(std::iter::once(&file).chain(&paths))?;
                let sc = scenario(&read_input(&file)?)?;
                let measurements = read_measurements(&paths)?;
                let cal =
                    tps_planner::plan::calibrate::calibrate(&sc, &measurements).map_err(|e| CliError::Input(format!("cannot calibrate: {e}")))?;
                if table {
                    Ok(render_calibration(&cal))
                } else {
                    // The JSON is the scenario; what the fit did and left out (runs of another engine) goes to
                    // stderr beside the files skipped (a trial's folder lost its SGLang and llama-bench runs unsaid).
                    eprintln!("tps: {}", cal.summary());
                    Ok(cal.scenario.to_json() + "\n")
                }
            }
            Command::Compare { scenario: file, paths, table } => {
                stdin_once(std::iter::once(&file).chain(&paths))?;
                let sc = scenario(&read_input(&file)?)?;
                let measurements = read_measurements(&paths)?;
                let comparisons = measurements
                    .iter()
                    .map(|m| import::compare(&sc, m))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| CliError::Input(format!("invalid scenario: {e}")))?;
                if table {
                    Ok(render_comparisons(&comparisons))
                } else {
                    json(&comparisons)
                }
            }
        }
    }

    /// Pretty JSON with a final newline.
    fn json<T: serde::Serialize>(v: &T) -> Result<String, CliError> {
        serde_json::to_string_pretty(v).map(|s| s + "\n").map_err(|e| CliError::Io(e.to_string()))
    }

    /// A file's text, or stdin's for `-`.
    fn read_input(file: &Path) -> Result<String, CliError> {
        read_text(file).map_err(|e| not_text(&shown_name(file), e))
    }

    /// A file's text, or standard input's for `-` (every command reads `-` so).
    fn read_text(path: &Path) -> std::io::Result<String> {
        if path == Path::new("-") {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map(|_| s)
        } else {
            std::fs::read_to_string(path)
        }
    }

    /// A path as messages name it: "stdin" for `-`.
    fn shown_name(path: &Path) -> String {
        if path == Path::new("-") {
            "stdin".to_string()
        } else {
            path.display().to_string()
        }
    }

    /// Standard input can be read once: `-` given twice is refused (a review: the second read an empty stdin and
    /// said "the file is empty"), as `diff` does.
    fn stdin_once<'a>(paths: impl Iterator<Item = &'a PathBuf>) -> Result<(), CliError> {
        if paths.filter(|p| p.as_path() == Path::new("-")).count() > 1 {
            return Err(CliError::Input("standard input (-) can be read once: give the other as a file".into()));
        }
        Ok(())
    }

    /// A read's error: content that is no UTF-8 text is bad input (exit 2, as the help says; a bad-input trial's
    /// binary scenario exited 1, "stream did not contain valid UTF-8"), anything else a read that failed (exit 1).
    fn not_text(name: &str, e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::InvalidData {
            CliError::Input(format!("{name}: not a UTF-8 text file (a binary file?)"))
        } else {
            CliError::Io(format!("{name}: {e}"))
        }
    }

    /// Evaluates a scenario's text; `which` names it in errors ("A", "B").
    fn evaluate(text: &str, analytic: bool, which: Option<&str>) -> Result<Report, CliError> {
        let name = which.map_or_else(|| "invalid scenario".to_string(), |w| format!("invalid scenario {w}"));
        let scenario = Scenario::from_json(text).map_err(|e| {
            let mut lines = vec![format!("{name}: {e}")];
            lines.extend(Scenario::text_errors(text).into_iter().filter(|f| f.field != e.field).map(|f| format!("tps: {name}: {f}")));
            CliError::Input(lines.join("\n"))
        })?;
        if analytic { tps_planner::plan::evaluate_analytic(&scenario) } else { tps_planner::plan::evaluate(&scenario) }.map_err(|e| {
            // Every refused field, a line each (a trial fixed memory_bandwidth_gbps before learning memory_gb was
            // refused too).
            let mut lines = vec![format!("{name}: {e}")];
            lines.extend(scenario.field_errors().into_iter().filter(|f| f.field != e.field).map(|f| format!("tps: {name}: {f}")));
            CliError::Input(lines.join("\n"))
        })
    }

    fn scenario(text: &str) -> Result<Scenario, CliError> {
        Scenario::from_json(text).map_err(|e| CliError::Input(format!("invalid scenario: {e}")))
    }

    /// A name's sort key with its runs of digits compared as numbers ("c8" before "c16").
    fn natural_key(name: &str) -> Vec<(u8, u128, String)> {
        let mut key = Vec::new();
        let mut rest = name;
        while let Some(c) = rest.chars().next() {
            let digits = c.is_ascii_digit();
            let end = rest.find(|x: char| x.is_ascii_digit() != digits).unwrap_or(rest.len());
            let (run, tail) = rest.split_at(end);
            key.push(if digits { (0, run.parse().unwrap_or(u128::MAX), run.to_string()) } else { (1, 0, run.to_string()) });
            rest = tail;
        }
        key
    }

    /// Every measurement in the files (a directory: each file in it, sorted by name, numbers in numeric order), each
    /// run once.
    fn read_measurements(paths: &[PathBuf]) -> Result<Vec<import::Measurement>, CliError> {
        // (file, whether it came from a directory listing: those may hold other files, which are skipped)
        let mut files = Vec::new();
        for path in paths {
            if path == Path::new("-") {
                // Standard input, as `eval` and `diff` read it (a bad-input trial: "-: No such file or directory").
                files.push((path.clone(), false));
            } else if path.is_dir() {
                let listed: Vec<_> = std::fs::read_dir(path)
                    .map_err(|e| CliError::Io(format!("{}: {e}", path.display())))?
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .collect();
                // Folders inside are not read, and said so (a trial's `tps import samples` left out its sweep folder
                // without a word).
                for d in listed.iter().filter(|f| f.is_dir()) {
                    eprintln!("tps: skipped the folder {} (give it as an argument to read its files)", d.display());
                }
                let mut inside: Vec<_> = listed.into_iter().filter(|f| f.is_file()).collect();
                // Numbers in names in numeric order (vllm-c1, -c8, -c16: a trial read "1, 16, 8" in the table).
                inside.sort_by_cached_key(|f| natural_key(&f.to_string_lossy()));
                files.extend(inside.into_iter().map(|f| (f, true)));
            } else {
                files.push((path.clone(), false));
            }
        }
        let mut out = Vec::new();
        for (f, listed) in files {
            let name = shown_name(&f);
            let text = match read_text(&f) {
                Ok(t) => t,
                // A folder of results also holds binaries and other tools' files (vLLM's *.pytorch.json,
                // genai-perf's raw profile_export.json): skip what cannot be read, say so.
                Err(e) if listed => {
                    eprintln!("tps: skipped {name}: {e}");
                    continue;
                }
                // Read but not text (an image, an archive): content that is no result file, exit 2 as the help says
                // (an operations trial's PNG exited 1, "stream did not contain valid UTF-8").
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(CliError::Input(format!("{name}: not a text file, so no benchmark result (a binary file?)")));
                }
                Err(e) => return Err(CliError::Io(format!("{name}: {e}"))),
            };
            match import::parse(&name, &text) {
                Ok(ms) => {
                    // The same run in another export (llama-bench's JSON and Markdown) or the same file twice.
                    let dup = import::merge(&mut out, ms);
                    if dup > 0 {
                        eprintln!(
                            "tps: skipped {dup} duplicate run{} in {name} (already read: the same run in another file or export)",
                            if dup == 1 { "" } else { "s" }
                        );
                    }
                }
                Err(e) if listed => eprintln!("tps: skipped {e}"),
                Err(e) => return Err(CliError::Input(e.to_string())),
            }
        }
        if out.is_empty() {
            return Err(CliError::Input("no benchmark results in the given files".into()));
        }
        Ok(out)
    }

    fn opt(v: Option<f64>, digits: usize) -> String {
        v.map_or_else(|| "—".into(), |x| format!("{x:.digits$}"))
    }

    /// Capacity, fleet, energy and cost, one line each (those the report has).
    fn meeting_lines(r: &Report) -> String {
        use tps_planner::plan::fmt_against;
        let mut o = String::new();
        let pct = r.target.percentile;
        match &r.capacity {
            Some(c) => {
                let load = |m: &tps_planner::scenario::Marker| {
                    m.concurrency
                        .map(|u| if u.round() == 1.0 { "1 user".to_string() } else { format!("{u:.0} users") })
                        .or(m.request_rate.map(|x| format!("{x:.3} req/s")))
                        .unwrap_or_default()
                };
                let next = c.next.as_ref().map_or_else(String::new, |n| {
                    format!(
                        "; {}: {pct} TTFT {} ms, TPOT {} ms",
                        load(n),
                        fmt_against(n.ttft_p_ms.unwrap_or(0.0), r.target.ttft_ms),
                        fmt_against(n.tpot_p_ms, r.target.tpot_ms)
                    )
                });
                o += &format!(
                    "capacity at the target: {} ({:.0} tok/s total, {pct} TTFT {} ms, TPOT {} ms), limited by {}{next} [{} extra level{} evaluated]\n",
                    load(&c.at),
                    c.at.system_tps,
                    fmt_against(c.at.ttft_p_ms.unwrap_or(0.0), r.target.ttft_ms),
                    fmt_against(c.at.tpot_p_ms, r.target.tpot_ms),
                    limited_by(c.limited_by),
                    c.extra_levels,
                    if c.extra_levels == 1 { "" } else { "s" }
                );
            }
            None => o += "capacity at the target: none\n",
        }
        if let Some(f) = &r.fleet {
            o += &format!("fleet: {}\n", f.sentence);
            if f.peak_users.is_some() {
                o += &format!("  ({})\n", f.users);
            }
            for a in &f.alternatives {
                o += &format!("  with {}\n", tps_planner::plan::fleet::alternative_words(f, a));
            }
        }
        if let Some(e) = &r.energy {
            o += &format!(
                "energy ({}, accelerators): {:.0} W per server at the operating point, {:.3} J/token, {} tokens/kWh; at {} {:.0} W{}, {:.3} J/token{}\n",
                tps_planner::plan::band_text(r.band.energy_pct),
                e.average_watts,
                e.joules_per_output_token,
                group(e.output_tokens_per_kwh),
                tps_planner::plan::energy::throughput_peak_words(r),
                e.at_peak.average_watts,
                tps_planner::plan::energy::peak_power_note(e, r.single_stream.devices),
                e.at_peak.joules_per_output_token,
                e.wall_joules_per_output_token.map_or_else(String::new, |w| format!("; at the meter ({}): {w:.3} J/token, {} tokens/kWh", e.meter_basis(), group(3.6e6 / w)))
            );
            if let Some(w) = tps_planner::plan::energy::fleet_power_words(r) {
                o += &format!("  the fleet {w}\n");
            }
        }
        if let Some(c) = &r.cost {
            let cur = c.currency.as_deref().map_or_else(String::new, |c| format!(" {c}"));
            let parts: Vec<String> = [
                c.devices_per_hour.map(|v| format!("devices {}", tps_planner::plan::cost::hourly_part(v))),
                c.electricity_per_hour.map(|v| format!("electricity {}", tps_planner::plan::cost::hourly_part(v))),
            ]
            .into_iter()
            .flatten()
            .collect();
            o += &format!(
                "cost: {:.3}{cur} per million output tokens at the operating point ({:.3} at {}); {:.2}{cur} per server-hour at the operating point ({}){}\n",
                c.per_million_output_tokens,
                c.at_peak.per_million_output_tokens,
                tps_planner::plan::energy::throughput_peak_words(r),
                c.per_hour,
                parts.join(" + "),
                c.fleet_per_hour.map_or_else(String::new, |f| format!(
                    "; the fleet {f:.2}{cur} per hour, {:.0}{cur} a month {}{}, {:.0}{cur} a year{}",
                    c.fleet_per_month.unwrap_or(f * 720.0),
                    tps_planner::plan::energy::month_words(r.fleet.as_ref().map_or(24.0, |f| f.peak_hours_per_day)),
                    c.fleet_electricity_per_month.map_or_else(String::new, |e| format!(" (electricity {}{cur} of it)", if e >= 10.0 { format!("{e:.0}") } else { tps_planner::plan::cost::hourly_part(e) })),
                    // The year after the month's own words (a review read "(720 h)" as the year's).
                    tps_planner::plan::energy::a_year(c.fleet_per_month.unwrap_or(f * 720.0)),
                    c.fleet_per_million_output_tokens.map_or_else(String::new, |m| format!(
                        ", the fleet's {m:.3}{cur} per million output tokens at the peak ({}){}",
                        r.fleet.as_ref().map_or_else(|| "spares and headroom paid".to_string(), tps_planner::plan::fleet::paid_words),
                        tps_planner::plan::cost::over_month_words(c, r, &|v| format!("{v:.3}{cur}"))
                    ))
                ))
            );
            if let Some(share) = tps_planner::plan::cost::in_and_out_share(r) {
                o += &format!(
                    "  each cost per million counts output tokens only; with the {}-token prompts counted too it is {share:.2} × as much: {:.3}{cur} per million tokens in and out at the operating point{}\n",
                    tps_planner::model::units::fmt_num(r.prompt_tokens),
                    c.per_million_output_tokens * share,
                    c.fleet_per_million_output_tokens.map_or_else(String::new, |f| format!(", {:.3}{cur} for the fleet at its peak", f * share))
                );
            }
            if let Some(p) = &c.purchase {
                let y = p.write_off_years;
                let hour = tps_planner::plan::cost::hourly_part(p.device_hour());
                let years = format!("{y} year{}", if y == 1.0 { "" } else { "s" });
                o += &match (p.fleet_devices, p.fleet_price) {
                    (Some(n), Some(f)) => {
                        format!(
                            "  buying the fleet: {f:.0}{cur} ({n} devices at {:.0}{cur}; {hour}{cur} per device-hour over {years}){}\n",
                            p.device_price,
                            c.fleet_over_write_off
                                .map_or_else(String::new, |t| format!("; over the {y}-year write-off, {}: {t:.0}{cur}", c.write_off_basis()))
                        )
                    }
                    _ => format!("  bought at {:.0}{cur} a device: {hour}{cur} per device-hour over {years}\n", p.device_price),
                };
            }
        }
        o
    }

    fn limited_by(l: tps_planner::scenario::LimitedBy) -> &'static str {
        use tps_planner::scenario::LimitedBy as L;
        match l {
            L::Tpot => "TPOT",
            L::Ttft => "TTFT",
            L::Task => "the task time",
            L::Memory => "memory (the KV cache)",
            L::EngineCap => "the engine's cap on running sequences (engine.max_batch)",
            L::Errors => "errors",
            L::Saturation => "saturation (the queue grows without bound)",
        }
    }

    fn fmt_limit(v: Option<f64>) -> String {
        // As typed ("≤ 2 ms" had been printed for 2.5).
        v.map_or_else(|| "none".into(), tps_planner::model::units::fmt_num)
    }
}
