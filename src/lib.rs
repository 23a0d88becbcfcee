//! TPS Planner: how many tokens per second an LLM gives on given hardware, for one user and for a whole
//! server, and at what concurrency it stops meeting a latency target.
//!
//! The crate is a pure model with thin front ends:
//! - [`model`]: the analytic roofline (memory, KV cache, decode and prefill step times);
//! - [`sim`]: a discrete-event simulation of a continuous-batching server for tail latencies under load;
//! - [`plan`]: load sweeps, targets, the saturation knee and the operating point, producing a [`scenario::Report`];
//! - [`presets`]: hardware, model, engine and target tables with sources;
//! - [`scenario`]: the versioned JSON interface ([`scenario::Scenario`] in, [`scenario::Report`] out);
//! - [`chart`]: plotters charts, generic over the drawing backend;
//! - `ui` (wasm32 only): the Leptos page. `src/bin/tps.rs` is the CLI.
//!
//! Nothing in `model`, `sim`, `plan`, `presets` or `scenario` touches leptos, web-sys, a clock or a global.

pub mod chart;
pub mod import;
pub mod model;
pub mod percentiles;
pub mod plan;
pub mod presets;
pub mod scenario;
pub mod sim;

#[cfg(target_arch = "wasm32")]
pub mod ui;
