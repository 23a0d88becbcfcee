//! Input state and input components.
//!
//! Every text input keeps its raw string in its own signal (so a half-typed "1." survives); [`Inputs::scenario`]
//! parses them into a [`Scenario`], and the error of a field is shown next to that field.

use crate::model::units::fmt_num;
use crate::scenario::{
    CostSpec, Distribution, EngineSpec, FleetSpec, HardwareSpec, LoadSpec, Mode, ModelSpec, QuantSpec, Scenario, ScenarioError, TargetSpec,
    WorkloadSpec,
};
use leptos::prelude::*;
use std::cell::RefCell;

/// The page's load choice: automatic user levels, the user's own user levels, or request rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadKind {
    Auto,
    Users,
    Rate,
    /// A batch job: every request at once (`workload.load.offline`; a link's had been read as automatic users
    /// without a word: a bad-input trial).
    Offline,
}
wire_ids!(LoadKind { Auto => "auto", Users => "concurrency", Rate => "rate", Offline => "offline" });

impl LoadKind {
    /// The scenario field its levels go to.
    #[must_use]
    pub fn field(self) -> &'static str {
        if self == LoadKind::Rate {
            "workload.load.request_rate"
        } else {
            "workload.load.concurrency"
        }
    }
}

/// The raw state of every control. `Copy`: signals are handles.
#[derive(Clone, Copy)]
pub struct Inputs {
    pub hw_preset: RwSignal<String>,
    pub bandwidth: RwSignal<String>,
    pub memory: RwSignal<String>,
    /// Dense FP16 TFLOPS per device.
    pub compute: RwSignal<String>,
    /// Dense FP8 TFLOPS per device.
    pub fp8: RwSignal<String>,
    /// Device-to-device bandwidth per direction, GB/s.
    pub interconnect: RwSignal<String>,
    /// Device kind id (`datacenter-gpu`, …; "" = the preset's, or "other" for a custom device).
    pub hw_kind: RwSignal<String>,
    /// Name of a custom device ("" = the preset's, or "N GB/s device").
    pub hw_name: RwSignal<String>,
    /// GPU generation id of a custom device (`hopper`, …; "" = the preset's, or typical for the kind).
    pub hw_arch: RwSignal<String>,
    /// What picking another device cleared of the numbers typed for the previous one ("" = nothing): said under
    /// the device, not part of the scenario.
    pub hw_cleared: RwSignal<String>,
    /// The weights a change of engine or model set in place of the previous engine's or model's default ("" =
    /// none): said under the Weights field, not part of the scenario.
    pub weights_followed: RwSignal<String>,
    pub devices: RwSignal<String>,
    /// Devices in a node bought whole (empty: 8, or 72 for an NVL72 rack).
    pub node_devices: RwSignal<String>,
    pub parallelism: RwSignal<String>,
    pub model_preset: RwSignal<String>,
    pub params: RwSignal<String>,
    pub quant: RwSignal<String>,
    /// The KV cache's format (empty: the engine's 16 bits).
    pub kv: RwSignal<String>,
    pub bits: RwSignal<String>,
    pub engine: RwSignal<String>,
    pub prompt: RwSignal<String>,
    pub output: RwSignal<String>,
    pub tpot: RwSignal<String>,
    pub ttft: RwSignal<String>,
    pub percentile: RwSignal<String>,
    /// `reader`, `agent` or `batch`.
    pub mode: RwSignal<String>,
    /// `auto`, `concurrency` or `rate`.
    pub load_kind: RwSignal<String>,
    /// Load levels, comma-separated.
    pub levels: RwSignal<String>,
    pub distribution: RwSignal<String>,
    pub spread: RwSignal<String>,
    /// Concurrent users' mean pause between an answer and the next request, seconds.
    pub think: RwSignal<String>,
    /// Prefix-cache hit rate, percent.
    pub prefix_hit: RwSignal<String>,
    /// Engine cap on sequences running at once (vLLM max_num_seqs, llama.cpp -np).
    pub max_batch: RwSignal<String>,
    /// Share of device memory the engine takes (vLLM --gpu-memory-utilization), percent.
    pub mem_util: RwSignal<String>,
    /// CUDA graphs for decode steps: "" (on, the engines' default) or "off" (eager mode).
    pub cuda_graphs: RwSignal<String>,
    /// SGLang's prompt steps: "" (they share steps with the decodes, the model's default: `--enable-mixed-chunk`) or
    /// "apart" (they pause the decodes, SGLang's own default).
    pub mixed_chunk: RwSignal<String>,
    /// Tokens already in the KV cache before the prompt (multi-turn history).
    pub depth: RwSignal<String>,
    /// Agent mode: LLM calls per task.
    pub agent_steps: RwSignal<String>,
    /// Agent mode: the time to a finished task, seconds (`target.task_s`).
    pub task_s: RwSignal<String>,
    /// The fleet's peak load: `users` (concurrent, the number in `peak`), `rate` (requests/s, in `peak_rate`) or
    /// `people` (a head count, its share active in the busiest hour in per cent and each one's requests in it).
    /// Each kind keeps its own number: 2,000 users switched to a rate is not 2,000 requests/s.
    pub peak_kind: RwSignal<String>,
    pub peak: RwSignal<String>,
    pub peak_rate: RwSignal<String>,
    pub people: RwSignal<String>,
    pub active_pct: RwSignal<String>,
    pub per_hour: RwSignal<String>,
    /// Spare servers on top of those serving the peak.
    pub spare: RwSignal<String>,
    /// Hours a day at the peak (the month's energy and cost).
    pub peak_hours: RwSignal<String>,
    /// Prices: one device for one hour, its currency, one kWh, and the facility's PUE.
    pub device_hour: RwSignal<String>,
    /// Or a purchase price per device, written off over `write_off` years.
    pub device_price: RwSignal<String>,
    pub write_off: RwSignal<String>,
    pub currency: RwSignal<String>,
    pub electricity: RwSignal<String>,
    pub pue: RwSignal<String>,
    /// What each device's host draws beside it, W (counted at the meter).
    pub host_watts: RwSignal<String>,
    /// The scenario the page's fields are laid over: fields the page has no control for (engine efficiencies,
    /// MoE shape, load levels, …) come from here, so a scenario imported from a link or JSON keeps them.
    pub base: RwSignal<Scenario>,
}

/// Whether the page shows the engine's memory share (`engine.memory_utilization`): vLLM's gpu_memory_utilization and
/// SGLang's mem_fraction_static are shares of the whole device memory, as the model reads it; TensorRT-LLM's and
/// LMDeploy's settings are shares of what the weights leave, so the field would mean something else there.
#[must_use]
pub fn has_memory_share(engine: &str) -> bool {
    matches!(engine, "vllm" | "sglang")
}

/// Whether the page offers the CUDA-graphs switch for this engine (the Python engines' `--enforce-eager`,
/// `--disable-cuda-graph`).
#[must_use]
pub fn has_graphs_switch(engine: &str) -> bool {
    matches!(engine, "vllm" | "sglang")
}

impl Inputs {
    /// The load choice in the select.
    #[must_use]
    pub fn load_kind(&self) -> LoadKind {
        self.load_kind.with(|k| LoadKind::from_id(k)).unwrap_or(LoadKind::Auto)
    }

    /// The use case in the select.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode.with(|m| Mode::from_id(m)).unwrap_or_default()
    }

    /// The starting scenario: Llama-3.1-8B in BF16 on one H100 SXM with vLLM.
    pub fn new() -> Self {
        let s = |v: &str| RwSignal::new(v.to_string());
        Self {
            hw_preset: s("h100-sxm"),
            bandwidth: s(""),
            memory: s(""),
            compute: s(""),
            fp8: s(""),
            interconnect: s(""),
            hw_kind: s(""),
            hw_name: s(""),
            hw_arch: s(""),
            hw_cleared: s(""),
            weights_followed: s(""),
            devices: s("1"),
            node_devices: s(""),
            parallelism: s(""),
            model_preset: s("llama-3.1-8b"),
            params: s(""),
            quant: s("bf16"),
            kv: s(""),
            bits: s(""),
            engine: s("vllm"),
            prompt: s("512"),
            output: s("256"),
            tpot: s("40"),
            ttft: s("2000"),
            percentile: s("99"),
            mode: s("reader"),
            load_kind: s("auto"),
            levels: s(""),
            // Lognormal lengths, as real traffic has them: with fixed ones closed-loop users move in lock-step
            // waves (a benchmark's pattern), and a new user's quote for 500 users changed 4 → 5 servers when
            // switched. The scenario format's default since 2026-12-06 (it was fixed, and the CLI and the page's
            // first view answered differently).
            distribution: s("lognormal"),
            spread: s(""),
            think: s(""),
            prefix_hit: s(""),
            max_batch: s(""),
            mem_util: s(""),
            cuda_graphs: s(""),
            mixed_chunk: s(""),
            depth: s(""),
            agent_steps: s(""),
            task_s: s(""),
            peak_kind: s("users"),
            peak: s(""),
            peak_rate: s(""),
            people: s(""),
            active_pct: s(""),
            per_hour: s(""),
            spare: s(""),
            peak_hours: s(""),
            device_hour: s(""),
            device_price: s(""),
            write_off: s(""),
            currency: s(""),
            electricity: s(""),
            pue: s(""),
            host_watts: s(""),
            base: RwSignal::new(Scenario::default()),
        }
    }

    /// Shows a scenario in the fields (and keeps the rest of it as the base).
    pub fn load(&self, sc: &Scenario) {
        let txt = |v: Option<f64>| v.map_or_else(String::new, fmt_num);
        // A stored fraction as a percentage, without the float noise of × 100 (0.57 → "57", not "56.99999999999999").
        let pct = |v: Option<f64>| txt(v.map(|f| (f * 100.0 * 1e9).round() / 1e9));
        self.hw_preset.set(sc.hardware.preset.clone().unwrap_or_default());
        self.hw_cleared.set(String::new());
        self.weights_followed.set(String::new());
        self.bandwidth.set(txt(sc.hardware.memory_bandwidth_gbps));
        self.memory.set(txt(sc.hardware.memory_gb));
        self.compute.set(txt(sc.hardware.fp16_tflops));
        self.fp8.set(txt(sc.hardware.fp8_tflops));
        self.interconnect.set(txt(sc.hardware.interconnect_gbps));
        self.hw_kind.set(sc.hardware.kind.map_or_else(String::new, |k| k.id().to_string()));
        self.hw_name.set(sc.hardware.name.clone().unwrap_or_default());
        self.hw_arch.set(sc.hardware.architecture.map_or_else(String::new, |a| a.id().to_string()));
        self.devices.set(sc.hardware.devices.map_or_else(|| "1".to_string(), |d| d.to_string()));
        self.node_devices.set(sc.hardware.node_devices.map_or_else(String::new, |d| d.to_string()));
        self.parallelism.set(sc.hardware.parallelism.map_or("", crate::model::hardware::Parallelism::id).into());
        self.model_preset.set(sc.model.preset.clone().unwrap_or_default());
        self.params.set(txt(sc.model.params_b));
        self.quant.set(sc.quantization.weights.clone().unwrap_or_default());
        self.kv.set(sc.quantization.kv_cache.as_deref().map_or_else(String::new, str::to_ascii_lowercase));
        self.bits.set(txt(sc.quantization.weight_bits));
        // A scenario without an engine runs its hardware's default, as `tps eval` runs it (vLLM had been shown and
        // run for every one: a trial read 66.8 tok/s on the page where the CLI said 72.0 with llama.cpp).
        let engine = crate::scenario::engine_of(sc);
        self.engine.set(engine.clone().unwrap_or_else(|| "vllm".into()));
        self.prompt.set(txt(sc.workload.prompt_tokens));
        self.output.set(txt(sc.workload.output_tokens));
        self.tpot.set(txt(sc.target.tpot_ms));
        self.ttft.set(txt(sc.target.ttft_ms));
        self.percentile.set(sc.target.percentile.map_or_else(|| "99".to_string(), |p| format!("{p}")));
        self.mode.set(sc.workload.mode.unwrap_or_default().id().into());
        let list = |v: &Vec<f64>| v.iter().map(|x| fmt_num(*x)).collect::<Vec<_>>().join(", ");
        match sc.workload.load.as_ref() {
            Some(LoadSpec { concurrency: Some(c), .. }) => {
                self.load_kind.set(LoadKind::Users.id().into());
                self.levels.set(list(c));
            }
            Some(LoadSpec { request_rate: Some(r), .. }) => {
                self.load_kind.set(LoadKind::Rate.id().into());
                self.levels.set(list(r));
            }
            Some(LoadSpec { offline: Some(true), .. }) => {
                self.load_kind.set(LoadKind::Offline.id().into());
                self.levels.set(String::new());
            }
            _ => {
                self.load_kind.set(LoadKind::Auto.id().into());
                self.levels.set(String::new());
            }
        }
        self.distribution.set(sc.workload.distribution.unwrap_or_default().id().into());
        self.spread.set(txt(sc.workload.spread));
        self.think.set(txt(sc.workload.think_time_s));
        self.prefix_hit.set(pct(sc.workload.prefix_cache_hit_rate));
        self.max_batch.set(sc.engine.max_batch.map_or_else(String::new, |n| n.to_string()));
        self.mem_util.set(pct(sc.engine.memory_utilization));
        self.cuda_graphs.set(if sc.engine.cuda_graphs == Some(false) { "off".into() } else { String::new() });
        self.mixed_chunk.set(if sc.engine.mixed_batches == Some(false) { "apart".into() } else { String::new() });
        self.depth.set(txt(sc.workload.context_depth));
        self.agent_steps.set(sc.workload.agent_steps.map_or_else(String::new, |n| n.to_string()));
        self.task_s.set(txt(sc.target.task_s));
        let fleet = sc.fleet.clone().unwrap_or_default();
        self.peak_kind.set(
            if fleet.people.is_some() || fleet.active_share.is_some() || fleet.requests_per_person_hour.is_some() {
                "people"
            } else if fleet.peak_request_rate.is_some() && fleet.peak_users.is_none() {
                "rate"
            } else {
                "users"
            }
            .into(),
        );
        self.peak.set(txt(fleet.peak_users));
        self.peak_rate.set(txt(fleet.peak_request_rate));
        self.people.set(txt(fleet.people));
        self.active_pct.set(pct(fleet.active_share));
        self.per_hour.set(txt(fleet.requests_per_person_hour));
        self.spare.set(fleet.spare_replicas.map_or_else(String::new, |n| n.to_string()));
        self.peak_hours.set(txt(fleet.peak_hours_per_day));
        let cost = sc.cost.clone().unwrap_or_default();
        self.device_hour.set(txt(cost.device_hour));
        self.device_price.set(txt(cost.device_price));
        self.write_off.set(txt(cost.write_off_years));
        self.currency.set(cost.currency.unwrap_or_default());
        self.electricity.set(txt(cost.electricity_per_kwh));
        self.pue.set(txt(cost.pue));
        self.host_watts.set(txt(cost.host_watts_per_device));
        // The engine shown is the scenario's own or its default: the base names it too, or the fields' scenario would
        // drop the loaded engine settings (efficiencies, reserve, pools) as another engine's (a review).
        let mut base = sc.clone();
        base.engine.preset = engine.or(base.engine.preset);
        self.base.set(base);
    }

    /// Every field's text by its name here: what a reload restores when a field does not parse (the address holds
    /// only scenarios, and text such as "8O" in Devices is none; [`super::share`]'s `&t=`).
    fn texts(&self) -> [(&'static str, RwSignal<String>); 52] {
        [
            ("hw_preset", self.hw_preset),
            ("bandwidth", self.bandwidth),
            ("memory", self.memory),
            ("compute", self.compute),
            ("fp8", self.fp8),
            ("interconnect", self.interconnect),
            ("hw_kind", self.hw_kind),
            ("hw_name", self.hw_name),
            ("hw_arch", self.hw_arch),
            ("devices", self.devices),
            ("node_devices", self.node_devices),
            ("parallelism", self.parallelism),
            ("model_preset", self.model_preset),
            ("params", self.params),
            ("quant", self.quant),
            ("kv", self.kv),
            ("bits", self.bits),
            ("engine", self.engine),
            ("prompt", self.prompt),
            ("output", self.output),
            ("tpot", self.tpot),
            ("ttft", self.ttft),
            ("percentile", self.percentile),
            ("mode", self.mode),
            ("load_kind", self.load_kind),
            ("levels", self.levels),
            ("distribution", self.distribution),
            ("spread", self.spread),
            ("think", self.think),
            ("prefix_hit", self.prefix_hit),
            ("max_batch", self.max_batch),
            ("mem_util", self.mem_util),
            ("cuda_graphs", self.cuda_graphs),
            ("mixed_chunk", self.mixed_chunk),
            ("depth", self.depth),
            ("agent_steps", self.agent_steps),
            ("task_s", self.task_s),
            ("peak_kind", self.peak_kind),
            ("peak", self.peak),
            ("peak_rate", self.peak_rate),
            ("people", self.people),
            ("active_pct", self.active_pct),
            ("per_hour", self.per_hour),
            ("spare", self.spare),
            ("peak_hours", self.peak_hours),
            ("device_hour", self.device_hour),
            ("device_price", self.device_price),
            ("write_off", self.write_off),
            ("currency", self.currency),
            ("electricity", self.electricity),
            ("pue", self.pue),
            ("host_watts", self.host_watts),
        ]
    }

    /// The fields' texts as `name:text,…`, each text %-encoded (tracks every field).
    #[must_use]
    pub fn typed(&self) -> String {
        let enc = |t: &str| String::from(js_sys::encode_uri_component(t));
        self.texts().iter().map(|(k, v)| format!("{k}:{}", v.with(|t| enc(t)))).collect::<Vec<_>>().join(",")
    }

    /// Puts back the texts [`Inputs::typed`] wrote (names it does not know are skipped).
    pub fn restore(&self, typed: &str) {
        let texts = self.texts();
        for (k, v) in typed.split(',').filter_map(|kv| kv.split_once(':')) {
            let text = js_sys::decode_uri_component(v).ok().and_then(|t| t.as_string());
            if let (Some((_, field)), Some(text)) = (texts.iter().find(|(n, _)| *n == k), text) {
                field.set(text);
            }
        }
    }

    /// The load levels: automatic, or a comma-separated list of users or request rates.
    fn load_spec(&self) -> Result<LoadSpec, ScenarioError> {
        let kind = self.load_kind();
        let field = kind.field();
        let parsed: Result<Vec<f64>, ScenarioError> = self.levels.with(|t| {
            // An empty list: automatic rates around the server's capacity; automatic users are the "auto" load.
            if t.trim().is_empty() && kind == LoadKind::Rate {
                return Ok(Vec::new());
            }
            let t = if t.trim().is_empty() { "1, 4, 16, 64" } else { t.as_str() };
            t.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .filter(|x| !x.is_empty())
                .map(|x| {
                    x.parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| ScenarioError::new(field, format!("\"{x}\" is not a number: list levels like 1, 4, 16")))
                })
                .collect()
        });
        Ok(match kind {
            LoadKind::Users => LoadSpec { concurrency: Some(parsed?), ..Default::default() },
            LoadKind::Rate => LoadSpec { request_rate: Some(parsed?), ..Default::default() },
            LoadKind::Auto => LoadSpec::default(),
            LoadKind::Offline => LoadSpec { offline: Some(true), ..Default::default() },
        })
    }

    /// Parses the raw strings into a scenario.
    ///
    /// # Errors
    /// The first field that is not a number, named by its scenario path.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        self.build(None)
    }

    /// Every field's message at once (a trial fixed a bad Devices field before the TPOT field said it was wrong too):
    /// what does not parse, then what the scenario refuses (`Scenario::field_errors`), one per field.
    pub fn field_errors(&self) -> Vec<ScenarioError> {
        let typed = RefCell::new(Vec::new());
        let built = self.build(Some(&typed));
        let mut out = typed.into_inner();
        let more = match built {
            Ok(sc) => sc.field_errors(),
            Err(e) => vec![e],
        };
        for e in more {
            if !out.iter().any(|o| o.field == e.field) {
                out.push(e);
            }
        }
        out
    }

    /// The scenario the fields say; with `typed`, a field that does not parse is recorded there and left empty, so
    /// the others are still read.
    #[inline(never)]
    fn build(&self, typed: Option<&RefCell<Vec<ScenarioError>>>) -> Result<Scenario, ScenarioError> {
        let fail = |e: ScenarioError| match typed {
            Some(t) => {
                t.borrow_mut().push(e);
                Ok(())
            }
            None => Err(e),
        };
        let opt = |s: RwSignal<String>| s.with(|v| if v.trim().is_empty() { None } else { Some(v.trim().to_string()) });
        let num = |s: RwSignal<String>, field: &str| kept(s.with(|v| parse_num(v, field)), typed);
        // A percentage field as a fraction, within [lo, 100] %.
        let share_raw = |s: RwSignal<String>, field: &str, lo: f64| match num(s, field)? {
            Some(p) if !(lo..=100.0).contains(&p) => {
                // A fraction typed as the engines' flags take it (vLLM's 0.9): say what it would be in per cent.
                let hint = if p > 0.0 && p <= 1.0 && p * 100.0 >= lo {
                    format!(" (for the fraction {}, type {})", fmt_num(p), crate::model::units::percent(p))
                } else {
                    String::new()
                };
                Err(ScenarioError::new(field, format!("{} % is out of range: allowed {}–100 %{hint}", fmt_num(p), fmt_num(lo))))
            }
            p => Ok(p.map(|p| p / 100.0)),
        };
        let share = |s: RwSignal<String>, field: &str, lo: f64| kept(share_raw(s, field, lo), typed);
        let int_raw = |s: RwSignal<String>, field: &str| -> Result<Option<u32>, ScenarioError> {
            match num(s, field)? {
                None => Ok(None),
                // The field's own range (devices 1–1024, …) is the scenario's check; here only what no field takes.
                Some(v) if v >= 1.0 && v.fract() == 0.0 && v <= 4e9 => Ok(Some(v as u32)),
                Some(v) if v > 4e9 => Err(ScenarioError::new(field, "too large a number")),
                Some(v) => Err(ScenarioError::new(field, format!("{} must be a whole number, at least 1", fmt_num(v)))),
            }
        };
        let int = |s: RwSignal<String>, field: &str| kept(int_raw(s, field), typed);
        let mode = self.mode();
        let fleet = {
            let spare = match num(self.spare, "fleet.spare_replicas")? {
                None => None,
                Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= 10_000.0 => Some(v as u32),
                Some(v) => {
                    fail(ScenarioError::new("fleet.spare_replicas", format!("{} must be a whole number from 0 to 10,000", fmt_num(v))))?;
                    None
                }
            };
            // Refused beside its own field even without a peak (1e308 had been dropped with the fleet it belongs to).
            let hours = match num(self.peak_hours, "fleet.peak_hours_per_day")? {
                Some(h) if !(0.5..=24.0).contains(&h) => {
                    fail(ScenarioError::new("fleet.peak_hours_per_day", format!("{} is out of range: allowed 0.5–24 hours a day", fmt_num(h))))?;
                    None
                }
                h => h,
            };
            let kind = self.peak_kind.get();
            let rate = kind == "rate";
            // A head count: its three parts (the scenario names the one missing); the share typed in per cent.
            let head = if kind == "people" {
                let people = num(self.people, "fleet.people")?;
                // From 1 %: "0.2" is far likelier the fraction 20 % than 0.2 % (the message says which to type).
                let active = share(self.active_pct, "fleet.active_share", 1.0)?;
                let per_hour = num(self.per_hour, "fleet.requests_per_person_hour")?;
                (people.is_some() || active.is_some() || per_hour.is_some()).then_some((people, active, per_hour))
            } else {
                None
            };
            let field = match kind.as_str() {
                "people" => "fleet.people",
                "rate" => "fleet.peak_request_rate",
                _ => "fleet.peak_users",
            };
            let typed = if kind == "people" { None } else { num(if rate { self.peak_rate } else { self.peak }, field)? };
            match (typed, head) {
                (None, None) if spare.unwrap_or(0) > 0 || hours.is_some() => {
                    fail(ScenarioError::new(field, "give the peak load to size a fleet (spare servers or hours at the peak alone size nothing)"))?;
                    None
                }
                (None, None) => None,
                (_, Some((people, active_share, per_hour))) => Some(FleetSpec {
                    people,
                    active_share,
                    requests_per_person_hour: per_hour,
                    spare_replicas: spare,
                    peak_hours_per_day: hours,
                    ..Default::default()
                }),
                (Some(p), None) => Some(FleetSpec {
                    peak_users: (!rate).then_some(p),
                    peak_request_rate: rate.then_some(p),
                    spare_replicas: spare,
                    peak_hours_per_day: hours,
                    ..Default::default()
                }),
            }
        };
        let cost = CostSpec {
            device_hour: num(self.device_hour, "cost.device_hour")?,
            currency: opt(self.currency),
            electricity_per_kwh: num(self.electricity, "cost.electricity_per_kwh")?,
            pue: num(self.pue, "cost.pue")?,
            device_price: num(self.device_price, "cost.device_price")?,
            write_off_years: num(self.write_off, "cost.write_off_years")?,
            host_watts_per_device: num(self.host_watts, "cost.host_watts_per_device")?,
        };
        let cost = (cost != CostSpec::default()).then_some(cost);
        let base = self.base.get();
        // The base's extra numbers belong to its own presets: picking another device, model or engine on the
        // page drops them.
        let (hw_preset, model_preset, engine_preset) = (opt(self.hw_preset), opt(self.model_preset), opt(self.engine));
        let hardware = if hw_preset == base.hardware.preset { base.hardware.clone() } else { HardwareSpec::default() };
        let model = if model_preset == base.model.preset { base.model.clone() } else { ModelSpec::default() };
        let engine = if engine_preset == base.engine.preset { base.engine.clone() } else { EngineSpec::default() };
        // Where the page shows the switch (vLLM, SGLang) as set there, kept while hidden; another engine keeps what a
        // loaded scenario said of it (switching engines on the page drops that with the base).
        let cuda_graphs = if engine_preset.as_deref().is_some_and(has_graphs_switch) {
            (self.cuda_graphs.get() == "off").then_some(false)
        } else {
            engine.cuda_graphs
        };
        // SGLang's switch as set on the page; other engines keep what a loaded scenario said.
        let mixed_batches =
            if engine_preset.as_deref() == Some("sglang") { (self.mixed_chunk.get() == "apart").then_some(false) } else { engine.mixed_batches };
        // Sent where the page shows it (vLLM, SGLang: a share of the whole memory), kept in the field across engine
        // switches; other engines keep what a loaded scenario said.
        let memory_utilization = if engine_preset.as_deref().is_some_and(has_memory_share) {
            share(self.mem_util, "engine.memory_utilization", 5.0)?
        } else {
            engine.memory_utilization
        };
        Ok(Scenario {
            version: Some(crate::scenario::VERSION),
            hardware: HardwareSpec {
                preset: hw_preset,
                memory_bandwidth_gbps: num(self.bandwidth, "hardware.memory_bandwidth_gbps")?,
                memory_gb: num(self.memory, "hardware.memory_gb")?,
                fp16_tflops: num(self.compute, "hardware.fp16_tflops")?,
                fp8_tflops: num(self.fp8, "hardware.fp8_tflops")?,
                interconnect_gbps: num(self.interconnect, "hardware.interconnect_gbps")?,
                kind: self.hw_kind.with(|k| crate::model::hardware::HardwareKind::ALL.into_iter().find(|x| x.id() == k.as_str())),
                name: opt(self.hw_name),
                architecture: self.hw_arch.with(|a| crate::model::hardware::Architecture::ALL.into_iter().find(|x| x.id() == a.as_str())),
                devices: int(self.devices, "hardware.devices")?,
                node_devices: int(self.node_devices, "hardware.node_devices")?,
                parallelism: self.parallelism.with(|p| crate::model::hardware::Parallelism::from_id(p)),
                ..hardware
            },
            model: ModelSpec { preset: model_preset, params_b: num(self.params, "model.params_b")?, ..model },
            quantization: QuantSpec { weights: opt(self.quant), kv_cache: opt(self.kv), weight_bits: num(self.bits, "quantization.weight_bits")? },
            engine: EngineSpec {
                preset: engine_preset,
                max_batch: int(self.max_batch, "engine.max_batch")?,
                memory_utilization,
                cuda_graphs,
                mixed_batches,
                ..engine
            },
            workload: WorkloadSpec {
                prompt_tokens: num(self.prompt, "workload.prompt_tokens")?,
                output_tokens: num(self.output, "workload.output_tokens")?,
                context_depth: num(self.depth, "workload.context_depth")?,
                // Read in agent mode only, as the task time: a hidden field's text must not block the page (a
                // bad-input trial: "abc" typed there, then Reader picked, held the page on its message).
                // (Out of agent mode left out, as the task time is: a number out of range blocked the page too, and a
                // text counted among the marked fields: a review.)
                agent_steps: if mode == Mode::Agent { int(self.agent_steps, "workload.agent_steps")? } else { None },
                load: kept(self.load_spec().map(Some), typed)?,
                mode: Some(mode),
                distribution: Some(self.distribution.with(|d| Distribution::from_id(d)).unwrap_or_default()),
                spread: num(self.spread, "workload.spread")?,
                // 0 is the default (no pause): left out, so "0" typed is the same scenario as an empty field.
                think_time_s: num(self.think, "workload.think_time_s")?.filter(|z| *z != 0.0),
                prefix_cache_hit_rate: share(self.prefix_hit, "workload.prefix_cache_hit_rate", 0.0)?,
                ..base.workload.clone()
            },
            // Batch is latency-free ("total throughput"): its latency limits are kept in the fields while hidden, not
            // sent (a new user's trial: the headline's batch peak beside "no load level meets the target").
            target: if mode == Mode::Batch {
                TargetSpec::default()
            } else {
                TargetSpec {
                    tpot_ms: num(self.tpot, "target.tpot_ms")?,
                    ttft_ms: num(self.ttft, "target.ttft_ms")?,
                    percentile: num(self.percentile, "target.percentile")?,
                    // Kept while another use case is shown (nothing typed is lost), applied in agent mode only.
                    task_s: if mode == Mode::Agent { num(self.task_s, "target.task_s")? } else { None },
                    ..base.target.clone()
                }
            },
            fleet,
            cost,
        })
    }
}

/// The message for `field` among the page's errors.
pub fn field_message(errors: &[ScenarioError], field: &str) -> Option<String> {
    errors.iter().find(|e| e.field == field).map(|e| e.message.clone())
}

/// `r`, or with `typed` (reading every field) its error recorded there and the field left empty.
fn kept<T>(r: Result<Option<T>, ScenarioError>, typed: Option<&RefCell<Vec<ScenarioError>>>) -> Result<Option<T>, ScenarioError> {
    match (r, typed) {
        (Err(e), Some(t)) => {
            t.borrow_mut().push(e);
            Ok(None)
        }
        (r, _) => r,
    }
}

/// A number typed into a field: `None` when empty. Thousands separators and spaces are fine ("3,350",
/// "1 000"), a decimal comma where it cannot group thousands ("0,12", "1,4"); units are not.
///
/// # Errors
/// Not a number, groups not of three, or a count with two readings ("6.000"), named by `field`.
#[inline(never)]
fn parse_num(raw: &str, field: &str) -> Result<Option<f64>, ScenarioError> {
    // Fields that count whole units refuse "6.000" (six, or six thousand?), prices and the PUE "2,125":
    // `model::units::parse_typed`. A purchase price is a large amount, read as a count is: "35,040" is thousands
    // and "35.040" is refused with both readings (a review: read as 35.04, a device-hour 1000 × too low).
    let count = ["tokens", "users", "devices", "depth", "replicas", "max_batch", "agent_steps", "price"].iter().any(|k| field.contains(k));
    // Fields bounded far below a thousand read "1.000" as one, as prices do (a review: a spread, a percentile or hours
    // a day typed so had been refused as "1 or 1000?").
    let bounded = ["spread", "percentile", "fraction", "hit_rate", "hours", "utilization", "efficiency"].iter().any(|k| field.contains(k));
    match crate::model::units::parse_typed(raw, count, (field.starts_with("cost.") || bounded) && !count, count && !field.contains("price")) {
        // Refused here, where the text is: a scenario's JSON writes infinity as null, so a second field's "1e309" had
        // no message when another field did not parse (a bad-input trial).
        Ok(Some(v)) if !v.is_finite() => Err(ScenarioError::new(field, format!("\"{}\" is no finite number", raw.trim()))),
        r => r.map_err(|m| ScenarioError::new(field, m)),
    }
}

/// A numeric input with a label, unit, placeholder (the preset's value) and its error.
#[component]
pub fn NumField(
    /// Label text.
    label: &'static str,
    /// Unit shown after the input.
    unit: &'static str,
    /// Scenario path of the field, to match errors.
    field: &'static str,
    /// The raw string.
    value: RwSignal<String>,
    /// Shown when empty (the preset's or default value).
    #[prop(into)]
    placeholder: Signal<String>,
    /// The current error, if any.
    #[prop(into)]
    error: Signal<Vec<ScenarioError>>,
    /// A unit that changes (a price's currency); replaces `unit`.
    #[prop(optional)]
    unit_text: Option<Signal<String>>,
) -> impl IntoView {
    let id = field.replace('.', "-");
    // The message is tied to its input (`aria-describedby`): a screen reader reads it with the field.
    let err_id = format!("{id}-error");
    let msg = move || error.with(|e| field_message(e, field));
    let unit = move || unit_text.map_or_else(|| unit.to_string(), |u| u.get());
    view! {
        <label class="field" class:invalid=move || msg().is_some()>
            <span class="label">{label}</span>
            <span class="control">
                <input
                    id=id.clone()
                    aria-describedby=err_id.clone()
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    prop:value=move || value.get()
                    placeholder=move || placeholder.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    aria-invalid=move || if msg().is_some() { "true" } else { "false" }
                />
                <span class="unit">{unit}</span>
            </span>
            <span class="error" id=err_id role="alert">{msg}</span>
        </label>
    }
}

/// A free-text input (a name) with a label and its error.
#[component]
pub fn TextField(
    /// Label text.
    label: &'static str,
    /// Scenario path of the field.
    field: &'static str,
    /// The raw string.
    value: RwSignal<String>,
    /// Shown when empty.
    placeholder: &'static str,
    /// The current error, if any.
    #[prop(into)]
    error: Signal<Vec<ScenarioError>>,
) -> impl IntoView {
    let id = field.replace('.', "-");
    let msg = move || error.with(|e| field_message(e, field));
    view! {
        <label class="field" class:invalid=move || msg().is_some()>
            <span class="label">{label}</span>
            <input id=id type="text" autocomplete="off" maxlength="120" placeholder=placeholder
                prop:value=move || value.get() on:input=move |ev| value.set(event_target_value(&ev)) />
            <span class="error" role="alert">{msg}</span>
        </label>
    }
}

/// A select over (id, label) options.
#[component]
pub fn SelectField(
    /// Label text.
    label: &'static str,
    /// Scenario path of the field.
    field: &'static str,
    /// Selected id ("" = none).
    value: RwSignal<String>,
    /// (id, label) pairs.
    options: Vec<(String, String)>,
    /// The current error, if any.
    #[prop(into)]
    error: Signal<Vec<ScenarioError>>,
    /// Called with the newly picked id before the value changes (e.g. to carry a preset's numbers into the
    /// fields when switching to "Custom").
    #[prop(optional)]
    on_pick: Option<Callback<String>>,
) -> impl IntoView {
    let id = field.replace('.', "-");
    let msg = move || error.with(|e| field_message(e, field));
    let change = move |ev| {
        let picked = event_target_value(&ev);
        if let Some(cb) = on_pick {
            cb.run(picked.clone());
        }
        value.set(picked);
    };
    // The picked option's whole text on hover: a narrow sidebar cuts "AMD Instinct MI300X — 5300 GB/s, 1…" (a
    // pre-sales trial).
    let names = options.clone();
    let title = move || value.with(|v| names.iter().find(|(id, _)| id == v).map(|(_, n)| n.clone()).unwrap_or_default());
    view! {
        <label class="field">
            <span class="label">{label}</span>
            <select id=id prop:value=move || value.get() on:change=change title=title>
                {options
                    .into_iter()
                    .map(|(id, name)| {
                        let selected = value.get_untracked() == id;
                        view! { <option value=id selected=selected>{name}</option> }
                    })
                    .collect_view()}
            </select>
            <span class="error" role="alert">{msg}</span>
        </label>
    }
}
