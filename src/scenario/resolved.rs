//! The validated scenario: every gap filled, every number checked. What the model, the simulator and planning
//! run on; nothing in it can be NaN, zero bandwidth or a negative size.

use super::ScenarioError;
use crate::model::roofline::Deployment;
use serde::{Deserialize, Serialize};

/// A validated disaggregation: devices in the prefill pool and the KV link.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Disaggregation {
    pub prefill_devices: u32,
    pub decode_devices: u32,
    pub kv_transfer_gbps: f64,
}

/// The peak load a fleet is sized for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakLoad {
    /// Concurrent users (requests in flight).
    Users(f64),
    /// Requests per second.
    RequestRate(f64),
}

impl PeakLoad {
    /// The peak's number, in its own unit (users or requests/s).
    #[must_use]
    pub fn value(self) -> f64 {
        match self {
            Self::Users(v) | Self::RequestRate(v) => v,
        }
    }
}

/// A peak given as a head count: `people` of whom `active_share` use the service in its busiest hour, each of those
/// sending `requests_per_hour` in it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeadCount {
    pub people: f64,
    pub active_share: f64,
    pub requests_per_hour: f64,
}

impl HeadCount {
    /// The busiest hour's requests/s: people × share × requests an hour ÷ 3,600.
    #[must_use]
    pub fn request_rate(&self) -> f64 {
        self.people * self.active_share * self.requests_per_hour / 3600.0
    }
}

/// A validated fleet question.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FleetInputs {
    pub peak: PeakLoad,
    /// The head count the peak (then in requests/s) was computed from, when given so.
    pub head_count: Option<HeadCount>,
    pub spare_replicas: u32,
    /// Hours a day at the peak (24: around the clock); the rest of the day every server idles.
    pub peak_hours_per_day: f64,
}

/// Validated prices. Every part is optional; a cost is reported for the parts given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostInputs {
    /// Price of one device for one hour.
    pub device_hour: Option<f64>,
    pub currency: Option<String>,
    /// Price of one kWh of electricity.
    pub electricity_per_kwh: Option<f64>,
    /// Power usage effectiveness of the facility (≥ 1); multiplies the devices' electricity.
    pub pue: Option<f64>,
    /// What a server draws beyond its accelerators, per accelerator, W (at the meter, under any load).
    pub host_watts: Option<f64>,
    /// Purchase price of one device (with its share of the server), when given instead of `device_hour` (which is
    /// then this price over `write_off_years`).
    pub device_price: Option<f64>,
    /// Years the purchase is written off over (`plan::cost::WRITE_OFF_YEARS` when not given); `None` without a
    /// purchase price.
    pub write_off_years: Option<f64>,
}

/// The load to sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Load {
    Concurrency(Vec<f64>),
    RequestRate(Vec<f64>),
    Offline,
}

/// How request lengths vary (on the wire: `fixed`, `uniform`, `lognormal`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Distribution {
    /// Every request the same length, as benchmarks run.
    Fixed,
    /// Uniform within ± spread × mean.
    Uniform,
    /// Lognormal with coefficient of variation `spread`, like real traffic: the default where none is given (the
    /// resolver's `DEFAULT_DISTRIBUTION`, the page's fields, its printed question), since 2026-12-06.
    #[default]
    Lognormal,
}

/// The use case the verdict is phrased for (on the wire: `reader`, `agent`, `batch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// People reading tokens as they stream.
    #[default]
    Reader,
    /// An agent's multi-step task: the time to a finished answer.
    Agent,
    /// Throughput only, no latency limit.
    Batch,
}

wire_ids!(Distribution { Fixed => "fixed", Uniform => "uniform", Lognormal => "lognormal" });
wire_ids!(Mode { Reader => "reader", Agent => "agent", Batch => "batch" });

/// A validated workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Workload {
    pub prompt_tokens: f64,
    pub output_tokens: f64,
    pub context_depth: f64,
    pub distribution: Distribution,
    pub spread: f64,
    pub prefix_cache_hit_rate: f64,
    pub load: Load,
    /// Whether the load levels were chosen automatically.
    pub auto_load: bool,
    pub requests: u32,
    /// A finite benchmark run of `requests` requests (`workload.benchmark_run`), not the steady state.
    pub benchmark_run: bool,
    pub seed: u64,
    pub burstiness: f64,
    /// Closed loop: each user's mean think time between an answer and the next request, seconds (0: none).
    pub think_time_s: f64,
    /// The users' think time as given, also where the load is swept as request rates (whose arrivals have none:
    /// the rates are what such users send): a fleet's peak in users is read in requests/s with it (a review, 2026-12-06:
    /// 1,000 users who pause 20 s, dropped to none on a rate sweep, were sized as 1,000 requests in flight, 48 servers
    /// where they send 42.7 req/s, 7).
    #[serde(skip)]
    pub users_think_s: f64,
    pub queue_limit: Option<u32>,
    pub timeout_s: Option<f64>,
    pub mode: Mode,
    pub agent_steps: u32,
    /// Concurrency levels the page added to the automatic ones for imported runs' loads (`plan::evaluate_with`):
    /// not the scenario's, so a link or `tps eval` of it does not have them.
    #[serde(skip)]
    pub levels_for_runs: Vec<f64>,
}

impl Workload {
    /// Tokens of context a request holds when its last token is generated: earlier turns, prompt and output.
    #[must_use]
    pub fn full_context(&self) -> f64 {
        self.context_depth + self.prompt_tokens + self.output_tokens
    }

    /// Mean context over a request's decode steps (the KV cache read per step grows from prompt to full).
    #[must_use]
    pub fn mean_context(&self) -> f64 {
        self.context_depth + self.prompt_tokens + self.output_tokens / 2.0
    }

    /// Prompt tokens the prefill computes (the rest come from the prefix cache).
    #[must_use]
    pub fn uncached_prompt(&self) -> f64 {
        self.prompt_tokens * (1.0 - self.prefix_cache_hit_rate)
    }

    /// Tokens in the KV cache before the prefill's first computed token: earlier turns and the prompt's cached prefix.
    #[must_use]
    pub fn prompt_prior(&self) -> f64 {
        self.context_depth + self.prompt_tokens - self.uncached_prompt()
    }
}

/// A validated target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    pub name: String,
    /// TPOT limit, ms (`None`: no limit, as the batch target; absent from the JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpot_ms: Option<f64>,
    /// TTFT limit, ms (`None`: no limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttft_ms: Option<f64>,
    /// The percentile latencies are judged at (serialised as its number, 99).
    pub percentile: crate::percentiles::Pct,
    pub operating_fraction: f64,
    /// Agent mode: the most seconds a task of `agent_steps` calls may take at the percentile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_s: Option<f64>,
}

impl Target {
    /// The TPOT limit, ms; `None` for a target without one (batch mode).
    #[must_use]
    pub fn tpot_limit_ms(&self) -> Option<f64> {
        self.tpot_ms
    }

    /// The TTFT limit, ms; `None` for a target without one (batch mode).
    #[must_use]
    pub fn ttft_limit_ms(&self) -> Option<f64> {
        self.ttft_ms
    }

    /// Whether the target limits latency at all.
    #[must_use]
    pub fn limits_latency(&self) -> bool {
        self.tpot_limit_ms().is_some() || self.ttft_limit_ms().is_some()
    }
}

/// A scenario with every gap filled and every number checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolved {
    pub deployment: Deployment,
    pub workload: Workload,
    pub target: Target,
    /// Human-readable list of defaults that filled gaps.
    pub defaults_used: Vec<String>,
    pub backend: String,
    /// The weight format's name and bits, for reports ("GGUF Q4_K_M, 4.85 bits").
    pub quantization: String,
    /// The model's context window, when a preset knows it.
    pub max_context: Option<u32>,
    /// Separate prefill and decode pools, if asked for.
    pub disaggregation: Option<Disaggregation>,
    /// The fleet to size, if asked for.
    pub fleet: Option<FleetInputs>,
    /// Prices, if any were given.
    pub cost: Option<CostInputs>,
}

impl Resolved {
    /// The (prefill pool, decode pool) deployments of a disaggregated setup.
    #[must_use]
    pub fn pools(&self) -> Option<(Deployment, Deployment)> {
        let g = self.disaggregation?;
        Some((self.at_devices(g.prefill_devices), self.at_devices(g.decode_devices)))
    }

    /// The deployment on `devices` devices: vLLM's default reserve follows the tensor-parallel size (its
    /// all-reduce buffers and one step's activations per device); a reserve the user set stays.
    #[must_use]
    pub fn at_devices(&self, devices: u32) -> Deployment {
        let mut d = self.deployment.clone();
        let default_reserve = crate::presets::engines::has_vllm_default_reserve(&d);
        // llama.cpp grown from one device takes its own split, the layer split (-sm layer), as a scenario of that many
        // devices resolves: one device's "tensor" is no choice made (a review: one M2 Ultra's alternative of two was
        // sized in a tensor split llama.cpp does not have).
        if d.engine.kind == crate::model::engine::EngineKind::LlamaCpp
            && d.hardware.devices == 1
            && devices > 1
            && d.hardware.parallelism == crate::model::hardware::Parallelism::Tensor
        {
            d.hardware.parallelism = crate::model::hardware::Parallelism::LayerSplit;
        }
        d.hardware.devices = devices;
        if let Some(link) = d.hardware.bridged_interconnect_gbps(devices) {
            d.hardware.interconnect_gbps = link;
        }
        if default_reserve {
            d.engine.reserve_gb = crate::presets::engines::vllm_reserve_gib(&d);
        }
        d
    }
}

impl Resolved {
    /// Fills a missing device memory (enough for the weights, 20 % headroom and 8 GiB, stated as a default) and
    /// then the default reserve (vLLM: its profile run's, `presets::engines::vllm_reserve_gib`; other engines: the
    /// preset's, at most a tenth of the memory); an explicit reserve must leave
    /// memory over.
    pub(crate) fn settle_memory(&mut self, explicit_reserve: bool) -> Result<(), ScenarioError> {
        let hw = &mut self.deployment.hardware;
        if hw.memory_gb.is_nan() {
            let need = self.deployment.model.params_b * 1e9 * self.deployment.weight_bits / 8.0 * 1.2 / crate::model::units::GIB + 8.0;
            hw.memory_gb = (need / f64::from(hw.devices)).ceil();
            self.defaults_used.push(format!("hardware.memory_gb: {} GiB per device (weights + 20 % + 8 GiB)", hw.memory_gb));
        }
        let e = &mut self.deployment.engine;
        if explicit_reserve {
            if e.reserve_gb >= hw.memory_gb {
                return Err(ScenarioError::new(
                    "engine.reserve_gb",
                    format!("{} GiB leaves nothing of the {} GiB per device", e.reserve_gb, hw.memory_gb),
                ));
            }
        } else if e.kind == crate::model::engine::EngineKind::Vllm {
            // vLLM's profile run decides it: the sampler's logits over the vocabulary, or one step's activations.
            let reserve = crate::presets::engines::vllm_reserve_gib(&self.deployment);
            let d = &mut self.deployment;
            d.engine.reserve_gb = reserve;
            self.defaults_used.push(format!(
                "engine.reserve_gb: {reserve:.2} GiB per device (vLLM's profile run: PyTorch's sampler over {} × {} logits, or a step's activations; FlashInfer's: ~40 %)",
                // Each rank's rows under DP attention (`vllm_reserve_gib`).
                d.rank_batch().min(d.chunk_tokens()),
                d.model.vocab
            ));
        } else {
            e.reserve_gb = e.reserve_gb.min(hw.memory_gb * 0.1);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hardware::Parallelism;
    use crate::scenario::Scenario;

    /// A wire enum's ids (the page's select values) are its JSON names, both ways.
    #[test]
    fn wire_enum_ids_are_their_json_names() {
        fn check<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug + Copy>(all: &[T], id: fn(T) -> &'static str) {
            for v in all {
                assert_eq!(serde_json::to_string(v).unwrap_or_default(), format!("\"{}\"", id(*v)));
                assert_eq!(serde_json::from_str::<T>(&format!("\"{}\"", id(*v))).ok(), Some(*v));
            }
        }
        check(Distribution::ALL, Distribution::id);
        check(Mode::ALL, Mode::id);
        check(Parallelism::ALL, Parallelism::id);
        assert_eq!((Mode::from_id("agent"), Mode::from_id("chat")), (Some(Mode::Agent), None));
    }

    /// A value outside an enum is refused when the JSON is read, naming its field and the valid values.
    #[test]
    fn an_unknown_enum_value_names_its_field_and_the_valid_ones() {
        for (json, field, valid) in [
            (r#"{"workload":{"distribution":"zipf"}}"#, "workload.distribution", "lognormal"),
            (r#"{"workload":{"mode":"chat"}}"#, "workload.mode", "batch"),
            (r#"{"hardware":{"parallelism":"ring"}}"#, "hardware.parallelism", "layer-split"),
        ] {
            let e = Scenario::from_json(json).err().unwrap_or_else(|| panic!("{json} was accepted"));
            assert_eq!(e.field, field, "{e}");
            assert!(e.message.contains(valid), "{e}");
        }
    }

    /// The links' compact JSON is the compact serializer's text, strings with spaces, quotes and escapes included.
    #[test]
    fn compact_json_is_the_compact_serializers_text() {
        let s = Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm","name":"our \"box\" , \\ 2 ×"},"model":{"preset":"llama-3.1-8b"},"cost":{"currency":"€ x"},"workload":{"load":{"concurrency":[1, 2.5]}}}"#,
        )
        .unwrap();
        // (Whole numbers written whole: the serializer's 1.0 is 1.)
        assert_eq!(s.to_compact_json(), serde_json::to_string(&s).unwrap().replace("[1.0,", "[1,"));
        assert!(s.to_json().contains("\"concurrency\": [\n") && !s.to_json().contains("1.0"), "{}", s.to_json());
        let round = Scenario::from_json(&s.to_json()).unwrap();
        assert!(round.same_as(&s) && round.workload.load == s.workload.load, "{}", round.to_json());
    }

    /// "No latency limit" is the absence of a limit, not a large number: the batch target has none, in the
    /// resolved scenario and in the report's JSON; a typed limit, however large, is a limit.
    #[test]
    fn no_limit_is_none_not_a_large_number() {
        let batch =
            Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"mode":"batch"}}"#).unwrap();
        let t = batch.resolve().unwrap().target;
        assert_eq!((t.tpot_ms, t.ttft_ms, t.limits_latency()), (None, None, false));
        let json = serde_json::to_value(&t).unwrap();
        assert!(json.get("tpot_ms").is_none() && json.get("ttft_ms").is_none(), "{json}");
        let big =
            Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"target":{"tpot_ms":900000000}}"#).unwrap();
        assert_eq!(big.resolve().unwrap().target.tpot_ms, Some(9e8));
    }
}
