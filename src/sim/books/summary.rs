//! The summary of a run: the measured requests' latency percentiles, the throughputs over the measurement
//! window, the time-weighted pool statistics, and whether the run saturated (see "Measurement" in the module
//! docs of [`crate::sim`]).

use super::Books;
use crate::sim::stats::{BusyStats, Percentiles};
use crate::sim::types::SimResult;

impl Books {
    /// Summarises the run. `stats` are the time-weighted statistics of the pool that decodes, `preemptions`
    /// those of all pools, `prefill_busy` the in-window busy time of a separate prefill pool (0 if none).
    pub(in crate::sim) fn result(mut self, truncated: bool, now: f64, stats: &BusyStats, preemptions: u32, prefill_busy: f64) -> SimResult {
        let end = if self.window_end.is_finite() {
            self.window_end
        } else if self.resolved_at.is_nan() {
            now
        } else {
            self.resolved_at
        };
        let duration = if self.window_start.is_finite() && end > self.window_start { end - self.window_start } else { 0.0 };
        let per_s = |x: f64| if duration > 0.0 { x / duration } else { 0.0 };
        let busy_share = |x: f64| if stats.busy > 0.0 { x / stats.busy } else { 0.0 };
        // Open loop: the queue grew between the middle and the end of the measured arrivals by more than a
        // twentieth of the arrivals in between: arrivals outpace service, latencies depend on the run length
        // (a tenth until 2026-12-07 let a load 9 % past capacity read as steady: the module doc).
        // A finite run is what it is: its latencies are the run's, however long its queue grew.
        let growing = match (self.q_mid, self.q_end) {
            _ if self.finite => false,
            (Some(mid), Some(end)) if end > mid => {
                let grew = (end - mid) as f64;
                let arrivals = (self.n_measured - 1 - self.n_measured / 2) as f64;
                grew >= 5.0 && grew > 0.05 * arrivals
            }
            _ => false,
        };
        // A closed loop in its steady state: every user always has one request in the system or is thinking (the
        // next is sent the moment the previous one ends, or a think time later; E2E is measured from the send), so
        // by Little's law it completes users ÷ (mean E2E + mean think time) requests per second. Counted over the arrival window instead, the figure
        // depends on where the window's ends fall in the users' cycles: 256 users over a window of 300 requests
        // (about one cycle) read 2,661 tok/s where users × output ÷ E2E is 2,094, and 2,016 at 2,000 requests (a
        // review's audit, 2026-12-04). Only when every measured request completed (rejections and timeouts break
        // the loop's accounting), the run was not cut short, and at least one request per user was measured
        // (fewer, taken right after a warm-up shorter than one wave, are not the users' mean cycle: 200 requests
        // of 1,536 users had read as 18,000 tok/s from a batch capped at 409).
        let n_done = f64::from(self.completed);
        let little = (self.closed
            && !self.finite
            && !truncated
            && self.rejected == 0
            && self.timed_out == 0
            && self.completed > 0
            && self.n_measured >= u64::from(self.concurrency))
        .then(|| self.e2e.iter().sum::<f64>() / n_done)
        .filter(|e2e| *e2e > 0.0)
        // With a think time, each user's cycle is its E2E and a pause.
        .map(|e2e| f64::from(self.concurrency) / (e2e + self.think));
        // An open loop in its steady state (its queue not growing, nothing refused or timed out, not a finite run)
        // completes what arrives: the rate × the measured requests' mean output, Little's law as for the closed loop.
        // Counted over the arrival window the figure was the drawn arrivals' rate, not the one asked for (a review:
        // 300 requests at 13.8 req/s read 16.3 req/s completed and 1,908 tok/s, above 13.8 × 128 = 1,766; by seed,
        // −8 to +5 % at 300 requests, about ±2 % at the default 2,000). A finite run keeps its window: a benchmark's
        // drawn arrivals are what it measured.
        let steady_rate = (!self.closed
            && !self.finite
            && !truncated
            && !growing
            && self.rejected == 0
            && self.timed_out == 0
            && self.completed > 0
            && self.rate.is_finite()
            && self.rate > 0.0)
            .then_some(self.rate);
        let little = little.or(steady_rate);
        // A saturated open-loop run: its capacity over the whole time its backlog kept the server busy.
        let backlog = growing && self.resolved_at.is_finite() && self.resolved_at > self.window_start;
        let system_output_tps = if let Some(x) = little {
            x * self.measured_tokens as f64 / n_done
        } else if backlog {
            self.tokens_since_start as f64 / (self.resolved_at - self.window_start)
        } else {
            per_s(self.tokens_in_window as f64)
        };
        // Its requests completed per second are that capacity's: its tokens ÷ a request's mean output. Counted in the
        // arrival window, which an overload makes shorter than one request's life, they were whatever requests of
        // the backlog happened to finish in it (a trial: 19.2 req/s of 128 tokens, 2,460 tok/s, beside 1,856).
        let by_tokens = (backlog && self.measured_tokens > 0).then(|| system_output_tps * n_done / self.measured_tokens as f64);
        SimResult {
            completed: self.completed,
            rejected: self.rejected,
            timed_out: self.timed_out,
            preemptions,
            duration_s: duration,
            system_output_tps,
            request_throughput: little.or(by_tokens).unwrap_or_else(|| per_s(self.completions_in_window as f64)),
            ttft_ms: Percentiles::of(&mut self.ttft).scaled(1e3),
            tpot_ms: Percentiles::of(&mut self.tpot).scaled(1e3),
            itl_ms: self.itl.percentiles().scaled(1e3),
            e2e_ms: Percentiles::of(&mut self.e2e).scaled(1e3),
            mean_batch: busy_share(stats.batch_time),
            mean_kv_utilization: busy_share(stats.kv_time),
            memory_bound_fraction: busy_share(stats.mem_time),
            compute_bound_fraction: busy_share(stats.comp_time),
            prefill_utilization: per_s(prefill_busy).clamp(0.0, 1.0),
            saturated: truncated || growing || self.completed == 0,
            goodput_rps: little.or(by_tokens).map_or_else(|| per_s(self.good_in_window as f64), |x| x * self.measured_good as f64 / n_done),
        }
    }
}
