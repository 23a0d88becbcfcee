//! The set-up every run shares, colocated ([`super::server`]) or disaggregated ([`super::disagg`]): the
//! all-zero result of a run that cannot start, the books with the entry engine's front end, the pools sized for
//! the run's queues, and the run's limits. Each event loop then only adds its pools' own checks (their KV pools
//! must hold the smallest request alone: [`Books::cap_lengths`]) and its own state.

use super::books::Books;
use super::pool::Pool;
use super::types::{SimConfig, SimResult, Targets};
use crate::model::roofline::Deployment;

/// An all-zero result (nothing could be simulated).
pub(super) fn empty(saturated: bool) -> SimResult {
    SimResult { saturated, ..SimResult::default() }
}

/// A run about to start: its books and its limits.
pub(super) struct Start {
    pub(super) books: Books,
    /// Hard stop of simulated time, seconds (infinite when `max_sim_seconds` is NaN).
    pub(super) max_sim: f64,
    /// Hard stop on the number of steps (of all pools).
    pub(super) max_steps: u64,
}

impl Start {
    /// Opens the books of `cfg` for requests that enter at the first of `pools` (and pass its engine's front
    /// end), or returns the result of a run that cannot start: saturated when one of `pools` cannot hold its
    /// weights, all zero and not saturated when there is nothing to simulate (no requests, no arrival rate).
    pub(super) fn new(pools: &[&Deployment], cfg: &SimConfig, targets: &Targets) -> Result<Self, Box<SimResult>> {
        if !pools.iter().all(|d| d.fits()) {
            return Err(Box::new(empty(true)));
        }
        let Some(mut books) = Books::new(cfg, targets) else { return Err(Box::new(empty(false))) };
        if let Some(entry) = pools.first() {
            books.frontend = (entry.engine.request_overhead_ms / 1e3).max(0.0);
            books.frontend_cv = entry.engine.request_overhead_cv.max(0.0);
        }
        let max_sim = if cfg.max_sim_seconds.is_nan() { f64::INFINITY } else { cfg.max_sim_seconds };
        Ok(Self { books, max_sim, max_steps: cfg.max_steps })
    }

    /// A pool on `d` for this run: its timeout, queue room for the requests in flight.
    pub(super) fn pool<'a>(&self, d: &'a Deployment) -> Pool<'a> {
        Pool::new(d, self.books.timeout, self.books.in_flight_hint())
    }
}
