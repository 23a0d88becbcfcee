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

/// The ids of a wire enum both ways, for the page's select fields and messages: `ALL`, `id()` and `from_id()`.
/// The ids are the serde names (a test in `scenario` checks every enum's ids against its JSON).
macro_rules! wire_ids {
    ($t:ty { $($v:ident => $id:literal),* $(,)? }) => {
        impl $t {
            /// Every value, in the order the page lists them.
            pub const ALL: &'static [$t] = &[$(<$t>::$v),*];
            /// The id written in a scenario's JSON.
            #[must_use]
            pub fn id(self) -> &'static str {
                match self { $(<$t>::$v => $id),* }
            }
            /// The value with this id.
            #[must_use]
            pub fn from_id(id: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.id() == id)
            }
        }
    };
}

pub mod chart;
pub mod import;
pub mod model;
pub mod percentiles;
pub mod plan;
pub mod presets;
pub mod scenario;
pub mod sim;
pub mod sorting;

#[cfg(target_arch = "wasm32")]
pub mod ui;
