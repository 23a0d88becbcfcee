//! The analytic model: pure functions of a resolved [`roofline::Deployment`], no UI, no clock, no globals.
//!
//! Layers, from the ground up:
//! 1. [`units`], [`quant`]: bytes and bits.
//! 2. [`hardware`], [`llm`], [`engine`]: what runs where, after presets and defaults.
//! 3. [`kv`]: KV-cache bytes per token (MHA/GQA, MLA, sliding window) and capacity.
//! 4. [`roofline`]: time of one decode/prefill step = max(bytes ÷ bandwidth, FLOPs ÷ compute) + comm + overhead.
//! 5. [`prefill`]: TTFT on an idle server.
//!
//! The single-stream ceiling the page shows first is the plain seed formula, bandwidth ÷ bytes read per token;
//! the decode rate then adds engine efficiency, KV reads and overheads.

pub mod engine;
pub mod hardware;
pub mod kernels;
pub mod kv;
pub mod llm;
pub mod prefill;
pub mod quant;
pub mod roofline;
pub mod units;
