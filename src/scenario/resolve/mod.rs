//! Resolution, one part a file: presets applied, defaults filled (each listed in `defaults_used`), every number
//! checked.

mod engine;
mod hardware;
mod model;
mod target;
mod workload;

pub(crate) use super::checks::default_backend;
pub use engine::{default_weights, weights_after_pick};
pub(crate) use engine::{resolve_engine, resolve_quant};
pub(crate) use hardware::resolve_hardware;
pub(crate) use model::resolve_model;
pub use target::OPERATING_RANGE;
pub(crate) use target::{resolve_cost, resolve_fleet, resolve_target};
pub(crate) use workload::resolve_workload;
pub use workload::{DEFAULT_AGENT_STEPS, DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS, MAX_LOAD_LEVEL};
