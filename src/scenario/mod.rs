//! The stable interface: [`Scenario`] (one sizing question, JSON, `"version": 1`) and [`Report`] (the answer).
//!
//! A scenario is what the page edits, what the URL hash and export/import carry, and what `tps eval` reads.
//! Every field may be omitted where a preset or a default supplies it; explicit numbers override presets. The
//! least a scenario needs is memory bandwidth, model size and bits per weight; every default that fills a gap is
//! listed in [`Report::defaults_used`]. Unknown fields, unknown preset ids and impossible values are
//! [`ScenarioError`]s that name the field.
//!
//! Validation happens here, at the edge: the model behind it never sees NaN, infinities, zero bandwidth or
//! negative sizes.

//!
//! The module's rooms: [`spec`] (the wire types: what a scenario may say), `resolve` (one file per part:
//! hardware, model, quantisation and engine, workload, target — presets and defaults filled in, every number
//! checked), `checks` (the range checks and their messages), [`resolved`] (the validated scenario the model
//! runs on). The answer's types ([`Report`] and its parts) belong to planning, in `crate::plan::report`; they
//! are re-exported here for the code that reads a scenario and its report together.

mod checks;
mod resolve;
pub mod resolved;
pub mod spec;

pub use crate::plan::report::*;
pub use resolve::{
    default_weights, weights_after_pick, DEFAULT_AGENT_STEPS, DEFAULT_OUTPUT_TOKENS, DEFAULT_PROMPT_TOKENS, MAX_LOAD_LEVEL, OPERATING_RANGE,
};
pub use resolved::*;
pub use spec::*;

use crate::model::hardware::{HardwareKind, Parallelism};
use crate::model::quant;
use crate::model::roofline::Deployment;
use crate::presets;
use checks::{check_u, positive, unknown};
use resolve::{
    default_backend, resolve_cost, resolve_engine, resolve_fleet, resolve_hardware, resolve_model, resolve_quant, resolve_target, resolve_workload,
};
use serde::{Deserialize, Serialize};

/// The first key given twice in one object of valid JSON `text`, as (the dotted path of its object, the key):
/// `serde_json::Value` keeps the last silently (a hostile trial's `"preset":"h100-sxm","preset":"h200-sxm"` ran an
/// H200). A scan of the text, not a second deserializer (the page's size).
fn duplicate_key(text: &str) -> Option<(String, String)> {
    // Per open container: the keys seen (`None`: an array), and the key whose value is being read.
    let mut stack: Vec<(Option<Vec<String>>, Option<String>)> = Vec::new();
    let mut chars = text.chars();
    let mut expect_key = false;
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                stack.push((Some(Vec::new()), None));
                expect_key = true;
            }
            '[' => stack.push((None, None)),
            '}' | ']' => {
                stack.pop();
                expect_key = false;
            }
            ',' => expect_key = matches!(stack.last(), Some((Some(_), _))),
            '"' => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            s.push(c);
                            s.extend(chars.next());
                        }
                        '"' => break,
                        c => s.push(c),
                    }
                }
                if expect_key {
                    expect_key = false;
                    // A key spelled with escapes (`"pr\u0065set"`) is the key it decodes to.
                    let s = if s.contains('\\') { serde_json::from_str::<String>(&format!("\"{s}\"")).unwrap_or(s) } else { s };
                    let outer = &stack[..stack.len().saturating_sub(1)];
                    let path: Vec<&str> = outer.iter().filter_map(|(_, k)| k.as_deref()).collect();
                    let path = path.join(".");
                    let Some((Some(seen), current)) = stack.last_mut() else { continue };
                    if seen.contains(&s) {
                        return Some((path, s));
                    }
                    seen.push(s.clone());
                    *current = Some(s);
                }
            }
            _ => {}
        }
    }
    None
}

/// JSON text with every number that ends in ".0" outside strings written without it (2000.0 → 2000): a float the
/// serializer wrote for a whole value.
fn whole_numbers(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped, mut last) = (false, false, 0);
    for (i, &c) in b.iter().enumerate() {
        if in_string {
            (in_string, escaped) = match (escaped, c) {
                (true, _) => (true, false),
                (false, b'\\') => (true, true),
                (false, b'"') => (false, false),
                _ => (true, false),
            };
        } else if c == b'"' {
            in_string = true;
        } else if c == b'.'
            && i > 0
            && b[i - 1].is_ascii_digit()
            && b.get(i + 1) == Some(&b'0')
            && !b.get(i + 2).is_some_and(|n| n.is_ascii_digit() || matches!(n, b'e' | b'E'))
        {
            out.push_str(&json[last..i]);
            last = i + 2;
        }
    }
    out.push_str(&json[last..]);
    out
}

/// [`duplicate_key`] as the error of its field.
fn duplicate_error(text: &str) -> Option<ScenarioError> {
    let (path, key) = duplicate_key(text)?;
    let field = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
    let within = if path.is_empty() { String::new() } else { format!(" in {path}") };
    Some(ScenarioError::new(
        &field,
        format!("\"{key}\" is given twice{within}: a key may appear once (the last would win unseen); keep the one meant"),
    ))
}

/// Every field of the scenario JSON `v` that does not read as its type or that the resolver refuses: each is taken
/// out and the rest read and resolved again (at most 12 rounds). A field nothing else supplies (a typed device's
/// bandwidth) comes back as required once taken out, and a parent comes back as incomplete ("fleet: give the peak
/// load" once a refused peak is taken out): the taken field is then set to 1, a value every such range admits, and
/// not reported again.
fn errors_of(mut v: serde_json::Value) -> Vec<ScenarioError> {
    let mut out: Vec<ScenarioError> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    let mut placeholders: Vec<String> = Vec::new();
    for _ in 0..12 {
        let e = match Scenario::deserialize(&v) {
            Err(e) => located_error(&v, &e),
            Ok(s) => match s.resolve() {
                Ok(_) => break,
                Err(e) => e,
            },
        };
        // A tagged or paired object missing what was taken out of it: the field taken, not a new fault ("model.moe.experts:
        // missing field `experts_per_token`" had followed the refused `experts_per_token` itself; a checking script's find).
        let missing = e.message.strip_prefix("missing field `").and_then(|r| r.split('`').next()).and_then(|name| {
            let parent = e.field.rsplit_once('.').map_or("", |(p, _)| p);
            [format!("{parent}.{name}"), format!("{}.{name}", e.field)].into_iter().find(|c| removed.contains(c))
        });
        let taken = missing
            .or_else(|| removed.iter().find(|r| **r == e.field || r.strip_prefix(e.field.as_str()).is_some_and(|t| t.starts_with('.'))).cloned());
        // Under an object whose preset was taken out, what is refused next follows from it: the figures the preset
        // would have given come back as required ("hardware.preset: unknown id" then "hardware.memory_bandwidth_gbps:
        // required", an operations trial), and the fields typed beside it are checked against stand-ins (a typed
        // active_params_b "more than params_b (1 B)", a review). None is reported: a field present is taken out, one
        // absent held at 1, and the rest checked.
        let presetless = e.field.rsplit_once('.').is_some_and(|(parent, _)| removed.iter().any(|r| *r == format!("{parent}.preset")));
        if taken.is_none() && presetless && remove_path(&mut v, &e.field) {
            continue;
        }
        let held = taken.or_else(|| (presetless || out.iter().any(|o| o.field == e.field)).then(|| e.field.clone()));
        if let Some(t) = held {
            if placeholders.contains(&t) || !set_path(&mut v, &t) {
                break;
            }
            placeholders.push(t);
            continue;
        }
        if !remove_path(&mut v, &e.field) {
            out.push(e);
            break;
        }
        removed.push(e.field.clone());
        out.push(e);
    }
    out
}

/// The object holding the field at a dotted path of a scenario's JSON ("hardware.fp8_tflops": the hardware
/// object) and the field's name; `None` when a parent is missing.
fn parent_of<'a>(v: &'a mut serde_json::Value, path: &'a str) -> Option<(&'a mut serde_json::Map<String, serde_json::Value>, &'a str)> {
    let (parents, last) = path.rsplit_once('.').map_or(("", path), |(p, l)| (p, l));
    let mut cur = v;
    for p in parents.split('.').filter(|p| !p.is_empty()) {
        cur = cur.get_mut(p)?;
    }
    Some((cur.as_object_mut()?, last))
}

/// Takes the field at a dotted path ("hardware.fp8_tflops") out of a scenario's JSON; false when it holds none.
fn remove_path(v: &mut serde_json::Value, path: &str) -> bool {
    parent_of(v, path).is_some_and(|(o, last)| o.remove(last).is_some())
}

/// Sets the number at a dotted path of a scenario's JSON to 1 (its parent object must exist, the field be absent);
/// false otherwise. A whole 1, which a count reads as well as a measure (1.0 is no `u32`: a stand-in for a refused
/// `experts_per_token` was refused in turn, and the search stopped before the fields after it; a review).
fn set_path(v: &mut serde_json::Value, path: &str) -> bool {
    parent_of(v, path).is_some_and(|(o, last)| o.insert(last.to_string(), serde_json::Value::from(1)).is_none())
}

/// The engine a scenario without one runs: vLLM on a datacenter GPU, llama.cpp on anything else.
#[must_use]
pub fn default_engine(kind: HardwareKind) -> &'static str {
    match kind {
        HardwareKind::DatacenterGpu => "vllm",
        _ => "llama.cpp",
    }
}

/// The engine a scenario runs when it names none: its hardware kind's, except on the datacenter boards with GDDR
/// memory (L40S, L4, A10, …: `presets::hardware::SERVER_BOARDS`), which take the workstation cards' kind for their
/// memory but are racked to serve: vLLM (a pre-sales trial's 8 × L40S had defaulted to llama.cpp, Q4_K_M and a
/// layer split, and the verdict advised more devices a layer split does not speed up).
#[must_use]
pub fn default_engine_for(kind: HardwareKind, preset: Option<&str>) -> &'static str {
    if preset.is_some_and(|p| presets::hardware::SERVER_BOARDS.iter().any(|b| b.eq_ignore_ascii_case(p))) {
        "vllm"
    } else {
        default_engine(kind)
    }
}

/// The engine `spec` runs: its own, or the default for its hardware (the page's engine select shows it, so a loaded
/// scenario without an engine runs what `tps eval` runs on it). `None` when the hardware does not resolve.
#[must_use]
pub fn engine_of(spec: &Scenario) -> Option<String> {
    spec.engine.preset.clone().or_else(|| {
        resolve::resolve_hardware(&spec.hardware, &mut Vec::new())
            .ok()
            .map(|h| default_engine_for(h.kind, spec.hardware.preset.as_deref()).to_string())
    })
}

/// The current scenario and report version.
pub const VERSION: u32 = 1;

/// An invalid scenario: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{field}: {message}")]
pub struct ScenarioError {
    /// Dotted path of the field (`hardware.memory_bandwidth_gbps`), or `json` for syntax errors.
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// One sizing question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(default)]
    pub hardware: HardwareSpec,
    #[serde(default)]
    pub model: ModelSpec,
    #[serde(default)]
    pub quantization: QuantSpec,
    #[serde(default)]
    pub engine: EngineSpec,
    #[serde(default)]
    pub workload: WorkloadSpec,
    #[serde(default)]
    pub target: TargetSpec,
    /// Fleet sizing: the peak load the whole service must carry (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<FleetSpec>,
    /// Prices for the cost per token (optional; nothing is priced by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostSpec>,
}

impl Scenario {
    /// Parses JSON, naming the field of any error (unknown fields included).
    ///
    /// # Errors
    /// Syntax errors, wrong types and unknown fields, with the dotted path of the field.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        // A byte-order mark (an editor's UTF-8 with BOM) is no part of the JSON.
        let text = text.trim_start_matches('\u{feff}');
        if text.trim().is_empty() {
            return Err(ScenarioError::new("json", "the scenario is empty: a JSON object { \"hardware\": …, \"model\": … } is expected"));
        }
        if !text.trim_start().starts_with('{') {
            return Err(ScenarioError::new("json", "a scenario is a JSON object: { \"hardware\": …, \"model\": … }"));
        }
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| ScenarioError::new("json", e.to_string()))?;
        if let Some(e) = duplicate_error(text) {
            return Err(e);
        }
        Self::deserialize(&v).map_err(|e| located_error(&v, &e))
    }

    /// Every field the resolver refuses, not only the first: each refused field is taken out and the rest
    /// resolved again (at most 12 rounds), so two bad fields get two messages (a trial fixed one and only then
    /// learned of the other). A field nothing else supplies (a typed device's bandwidth, a typed model's size)
    /// comes back as required once taken out: it is then set to 1, a value every such range admits, and the rest
    /// checked. Stops at a refused field the scenario does not hold (a preset's figure). Empty when it resolves.
    #[must_use]
    pub fn field_errors(&self) -> Vec<ScenarioError> {
        // Through the JSON text: `to_value` would compile a second serializer of every type into the page (9 KB).
        serde_json::from_str::<serde_json::Value>(&self.to_json()).map_or_else(|_| Vec::new(), errors_of)
    }

    /// Every field a scenario's text gets wrong, as `tps eval` reports them: what does not read as its type and what
    /// the resolver refuses, each taken out in turn (a trial's six bad fields had been reported as the first alone).
    /// Text that is no JSON object has its one error. Empty when the text is a valid scenario.
    #[must_use]
    pub fn text_errors(text: &str) -> Vec<ScenarioError> {
        match serde_json::from_str::<serde_json::Value>(text.trim_start_matches('\u{feff}')) {
            Ok(v) if v.is_object() => duplicate_error(text).into_iter().chain(errors_of(v)).collect(),
            _ => Self::from_json(text).err().into_iter().collect(),
        }
    }

    /// Pretty JSON, whole numbers written whole (an operations trial read `"prompt_tokens": 2000.0` and
    /// `"percentile": 99.0` in its export: counts kept as floats by the serializer).
    #[must_use]
    pub fn to_json(&self) -> String {
        whole_numbers(&serde_json::to_string_pretty(self).unwrap_or_default())
    }

    /// Whether two scenarios are the same question: the same JSON. (What the page compares with: a derived
    /// `PartialEq` of every field was 3.4 KB of its wasm; the serializer is there anyway.)
    #[must_use]
    pub fn same_as(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }

    /// Compact JSON (for links): the pretty JSON without the whitespace between tokens, the same text as a
    /// compact serializer writes, without a second copy of every `Serialize` in the page's wasm.
    #[must_use]
    pub fn to_compact_json(&self) -> String {
        let pretty = self.to_json();
        let mut out = String::with_capacity(pretty.len());
        let (mut in_string, mut escaped) = (false, false);
        for c in pretty.chars() {
            if in_string {
                out.push(c);
                (in_string, escaped) = match (escaped, c) {
                    (true, _) => (true, false),
                    (false, '\\') => (true, true),
                    (false, '"') => (false, false),
                    _ => (true, false),
                };
            } else if !c.is_whitespace() {
                in_string = c == '"';
                out.push(c);
            }
        }
        out
    }

    /// The context of this scenario's requests and the model's window, when the requests (earlier context + prompt + output, defaults
    /// applied) are longer than it: the request [`Self::resolve`] refuses. A comparison with an imported run asks
    /// first, to note such a run instead of failing (`import::compare`).
    #[must_use]
    pub fn window_exceeded(&self) -> Option<(f64, u32)> {
        let w = resolve_workload(&self.workload, &mut Vec::new()).ok()?;
        over_window(&w, self.model.preset.as_deref().and_then(presets::models::find).map(|m| m.max_context)).map(|max| (w.full_context(), max))
    }

    /// Applies presets and defaults and validates every number.
    ///
    /// # Errors
    /// The first invalid field, with its allowed range.
    pub fn resolve(&self) -> Result<Resolved, ScenarioError> {
        if let Some(v) = self.version {
            if v != VERSION {
                return Err(ScenarioError::new("version", format!("unsupported version {v}; this build reads version {VERSION}")));
            }
        }
        let mut defaults = Vec::new();
        let hardware = resolve_hardware(&self.hardware, &mut defaults)?;
        let model = resolve_model(&self.model, &mut defaults)?;
        let (_engine_id, engine_preset) = match &self.engine.preset {
            Some(id) => {
                (id.clone(), presets::engines::find(id).ok_or_else(|| unknown("engine.preset", id, presets::engines::ENGINES.iter().map(|e| e.id)))?)
            }
            None => {
                let id = default_engine_for(hardware.kind, self.hardware.preset.as_deref());
                let typical = if id == default_engine(hardware.kind) { hardware.kind.id() } else { "a datacenter board" };
                defaults.push(format!("engine: {id} (typical for {typical})"));
                (id.to_string(), presets::engines::find(id).expect("built-in engine"))
            }
        };
        let mut hardware = hardware;
        if hardware.devices > 1 && self.hardware.parallelism.is_none() && self.engine.disaggregation.is_none() {
            // Each engine's own default: llama.cpp splits layers (`-sm layer`), serving engines run tensor parallel.
            let (p, id) = if engine_preset.id == "llama.cpp" {
                (Parallelism::LayerSplit, "layer-split (llama.cpp's -sm layer)")
            } else {
                (Parallelism::Tensor, "tensor")
            };
            hardware.parallelism = p;
            defaults.push(format!("hardware.parallelism: {id}"));
        }
        if hardware.spans_nodes() && self.engine.disaggregation.is_none() {
            let dp = hardware.parallelism == Parallelism::DpAttention;
            defaults.push(format!(
                "hardware: {} over {} devices spans {} nodes of {}: its {} cross the network at {:.0} GB/s a device, {:.0} µs each (one 400 Gb/s NIC per GPU), not the node's links{}",
                if dp { "DP attention" } else { "tensor parallelism" },
                hardware.devices,
                hardware.devices.div_ceil(hardware.node_devices),
                hardware.node_devices,
                if dp { "gathers of tokens for the experts" } else { "all-reduces" },
                hardware.allreduce_gbps(),
                hardware.allreduce_latency_s() * 1e6,
                if dp { "" } else { " — engines split tensors within a node and pipeline across nodes" }
            ));
        }
        let native = self.model.preset.as_deref().and_then(presets::models::find).map(|m| m.native_weights);
        let (weight_bits, format_dtype) = resolve_quant(&self.quantization, engine_preset.id, native, &mut defaults)?;
        // The weight format by id: the user's, or the default when no bits were typed either (`None`: custom bits).
        let format = self
            .quantization
            .weights
            .as_deref()
            .or_else(|| self.quantization.weight_bits.is_none().then(|| default_weights(engine_preset.id, native)));
        let experts_only = quant::dense_part_bits(format, native, engine_preset.id, model.is_moe());
        let (compute_dtype, experts_rate) =
            quant::engine_compute_dtype(format_dtype, engine_preset.id, experts_only.is_some(), hardware.fp4_tflops.is_some());
        if experts_rate {
            let (bits, rate) = if compute_dtype == quant::ComputeDtype::Fp8 { ("8-bit", "FP8") } else { ("16-bit", "16-bit") };
            defaults.push(format!(
                "compute rate: {rate}, not FP4 — {} multiplies the model's MXFP4 experts by {bits} activations (FP4's rate needs 4-bit ones, as NVFP4 has)",
                engine_preset.name
            ));
        }
        // 4-bit weights with 16-bit arithmetic (AWQ, GPTQ: W4A16) halve one user's bytes but not a batch's FLOPs: a
        // teacher's trial saw 8B's capacity on an H100 stay at 178 users from BF16 to every 4-bit format, and asked.
        // So does a 4-bit float format (NVFP4, MXFP4) on a device without FP4 tensor units (`Hardware::peak_flops`: vLLM's
        // Marlin W4A16 path on Hopper and Ampere); a teacher's trial saw NVFP4 accepted on an H100 without a word.
        let unpacked = (compute_dtype == quant::ComputeDtype::Fp16 && matches!(format, Some("awq" | "gptq")))
            || (compute_dtype == quant::ComputeDtype::Fp4 && hardware.fp4_tflops.is_none());
        if !experts_rate && unpacked && engine_preset.id != "llama.cpp" {
            // (vLLM's Marlin path is the one known to run a 4-bit float format without FP4 units; the others are said
            // to be taken as it, a review: TensorRT-LLM's NVFP4 needs Blackwell.)
            let who = if engine_preset.id == "vllm" || !matches!(format, Some("nvfp4" | "mxfp4")) {
                format!("{} unpacks", engine_preset.name)
            } else {
                format!("without FP4 tensor units, taken as vLLM's W4A16 path ({} may not run this format here), which unpacks", engine_preset.name)
            };
            defaults.push(format!(
                "compute rate: 16-bit — {who} the 4-bit weights to 16 bits to multiply them: they cut the bytes a step reads (one user's speed), not its arithmetic (a compute-bound batch's: the capacity may not move)"
            ));
        }
        let dense_bits = experts_only.unwrap_or(weight_bits);
        // (llama.cpp runs GGUF files, whose head is the file's own: gpt-oss's at Q8_0 with the rest of its dense part.)
        let head_bits = if engine_preset.id == "llama.cpp" { dense_bits } else { quant::head_bits(format).unwrap_or(dense_bits).max(dense_bits) };
        let kv_id = self.quantization.kv_cache.clone().unwrap_or_else(|| "fp16".into());
        let kv = quant::kv_format(&kv_id).ok_or_else(|| unknown("quantization.kv_cache", &kv_id, quant::KV_FORMATS.iter().map(|k| k.id)))?;
        // llama.cpp's block formats are its own: vLLM and SGLang keep 16 bits or FP8 (now a choice on the page).
        // (TensorRT-LLM's too; LMDeploy's 8- and 4-bit KV quantisation is near them. An audit: TensorRT-LLM took q4_0.)
        if matches!(kv.id, "q8_0" | "q4_0") && matches!(engine_preset.id, "vllm" | "sglang" | "tensorrt-llm") {
            return Err(ScenarioError::new(
                "quantization.kv_cache",
                format!("{} is llama.cpp's KV format; {} keeps its KV cache in 16 bits or FP8 (fp8)", kv.id, engine_preset.name),
            ));
        }
        // And llama.cpp has no FP8 cache (`-ctk`: f32, f16, bf16, q8_0, q4_0 and other block formats).
        if kv.id == "fp8" && engine_preset.id == "llama.cpp" {
            return Err(ScenarioError::new(
                "quantization.kv_cache",
                "llama.cpp has no FP8 KV cache: its 8-bit cache is q8_0 (-ctk q8_0 -ctv q8_0), 4-bit q4_0".to_string(),
            ));
        }
        let engine = resolve_engine(&self.engine, engine_preset, &hardware, &model, &mut defaults)?;
        let backend = self.engine.backend.clone().unwrap_or_else(|| default_backend(hardware.kind).to_string());
        let mut workload = resolve_workload(&self.workload, &mut defaults)?;
        let target = resolve_target(&self.target, workload.mode, &mut defaults)?;
        let fleet = self.fleet.as_ref().map(resolve_fleet).transpose()?;
        // A peak in requests/s is sized on request rates when no levels are given: a closed loop's users at the
        // operating point carry a larger share of a server's rate (a trial's 13.3 req/s took 2 servers on the
        // automatic users and 3 on rates, each read against its own capacity).
        // (Not in batch mode: without a latency target its users are a job's parallelism, not a peak's shape.)
        if workload.auto_load
            && workload.mode != Mode::Batch
            && matches!(workload.load, Load::Concurrency(_))
            && fleet.as_ref().is_some_and(|f| matches!(f.peak, PeakLoad::RequestRate(_)))
        {
            workload.load = Load::RequestRate(Vec::new());
            defaults.push("load: automatic request rates, 5–115 % of the most requests a second a server completes, latency aside (its offline throughput ÷ the output tokens; the fleet's peak is in requests/s)".into());
        }
        // A think time is the pause of concurrent users: arrivals at a rate and a job released at once have none.
        // On a rate sweep the users' think time still turns a fleet's peak in users into the requests/s they send.
        if !matches!(workload.load, Load::Concurrency(_)) && workload.think_time_s > 0.0 {
            let think = crate::model::units::fmt_num(workload.think_time_s);
            let users_peak = fleet.as_ref().is_some_and(|f| matches!(f.peak, PeakLoad::Users(_)));
            defaults.push(match (&workload.load, users_peak) {
                (Load::RequestRate(_), true) => format!(
                    "workload.think_time_s: not simulated on request rates (arrivals at a rate are what users who pause send); the fleet's peak users, who pause {think} s each, send requests/s = users ÷ (E2E + {think} s)"
                ),
                (Load::RequestRate(_), false) => format!(
                    "workload.think_time_s: {think} s not used — arrivals at a rate are what users who pause send; it turns a fleet's peak in users into requests/s"
                ),
                _ => format!("workload.think_time_s: {think} s not used — an offline job releases every request at once"),
            });
            // Kept only where it is read: a users peak on a rate sweep (a review: a req/s peak's fleet had said its
            // users "pause 20 s" beside the line calling the pause unused).
            if !(matches!(workload.load, Load::RequestRate(_)) && users_peak) {
                workload.users_think_s = 0.0;
            }
            workload.think_time_s = 0.0;
        }
        let cost = self.cost.as_ref().map(resolve_cost).transpose()?;
        let disaggregation = match &self.engine.disaggregation {
            None => None,
            Some(g) => {
                let n = hardware.devices;
                if n < 2 {
                    return Err(ScenarioError::new("engine.disaggregation", "needs at least 2 devices (hardware.devices): one per pool"));
                }
                let p = check_u("engine.disaggregation.prefill_devices", g.prefill_devices.unwrap_or(n / 2), 1, n - 1)?;
                if hardware.parallelism != Parallelism::Tensor {
                    return Err(ScenarioError::new("hardware.parallelism", "disaggregated pools are tensor parallel inside each pool"));
                }
                let gbps =
                    positive("engine.disaggregation.kv_transfer_gbps", g.kv_transfer_gbps.unwrap_or(hardware.interconnect_gbps), 100_000.0, "GB/s")?;
                Some(Disaggregation { prefill_devices: p, decode_devices: n - p, kv_transfer_gbps: gbps })
            }
        };
        let mut resolved = Resolved {
            deployment: Deployment { hardware, model, weight_bits, dense_bits, head_bits, compute_dtype, kv_elem_bytes: kv.bytes, engine },
            workload,
            target,
            defaults_used: defaults,
            backend,
            quantization: {
                let name = format.and_then(quant::weight_format).map_or("custom", |f| f.label);
                format!("{name}, {weight_bits} bits")
            },
            max_context: self.model.preset.as_deref().and_then(presets::models::find).map(|m| m.max_context),
            disaggregation,
            fleet,
            cost,
        };
        // The serving formats keep the head and embeddings in 16 bits (`model::quant::head_bits`): said, with what
        // they weigh, where they weigh something (a trial's hand check of the weights came out 2.3 GB short).
        if head_bits > dense_bits {
            let d = &resolved.deployment;
            let table = d.model.head_params() + d.model.unread_embedding_params();
            let extra = table * (head_bits - dense_bits) / 8.0;
            if extra >= 0.01 * d.weight_bytes() {
                resolved.defaults_used.push(format!(
                    "weights: the output head{} at 16 bits, as {} checkpoints keep {}: {:.2} GB more than at {} bits ({:.2} GB of it read every token)",
                    if d.model.tied_embeddings { " (tied to the embedding table)" } else { " and the embedding table" },
                    format.unwrap_or_default(),
                    if d.model.tied_embeddings { "it" } else { "them" },
                    extra / 1e9,
                    crate::model::units::fmt_num(dense_bits),
                    d.model.head_params() * (head_bits - dense_bits) / 8.0 / 1e9
                ));
            }
        }
        resolved.settle_memory(self.engine.reserve_gb.is_some())?;
        let hw = &resolved.deployment.hardware;
        if matches!(hw.parallelism, Parallelism::LayerSplit | Parallelism::Pipeline) && hw.devices > resolved.deployment.model.layers {
            return Err(ScenarioError::new(
                "hardware.devices",
                format!(
                    "{} devices for a {}-layer model: a layer split or pipeline needs at least one layer per device",
                    hw.devices, resolved.deployment.model.layers
                ),
            ));
        }
        // A split the serving engines refuse, and a request longer than the model's window, are errors, not answers
        // under a warning (a new user's trial sized a fleet of 3-GPU servers for Llama-3.1-70B, and read "one user
        // gets 59 tok/s" for a 200,000-token prompt to a 131,072-token model).
        let d = &resolved.deployment;
        let pools = match &resolved.disaggregation {
            Some(g) => {
                // The decode pool is what the devices leave after the prefill pool's.
                vec![("engine.disaggregation.prefill_devices", g.prefill_devices), ("hardware.devices", g.decode_devices)]
            }
            None => vec![("hardware.devices", d.hardware.devices)],
        };
        if d.hardware.parallelism == Parallelism::Tensor {
            if let Some((field, n)) = pools.into_iter().find(|&(_, n)| n > 1 && !d.model.splits_over(n)) {
                let fits: Vec<String> = (1..=64).filter(|&k| d.model.splits_over(k)).map(|k| k.to_string()).collect();
                return Err(ScenarioError::new(
                    field,
                    format!(
                        "tensor parallelism cannot split {}'s {} attention heads and {} KV heads over {n} devices{} (they must divide evenly, or the devices be a multiple of the KV heads); engines refuse it — {} devices {}",
                        d.model.name,
                        d.model.attention_heads,
                        d.model.kv_heads,
                        if resolved.disaggregation.is_some() { " in a pool" } else { "" },
                        fits.join(", "),
                        // Disaggregated pools are tensor parallel inside each pool; a single group may pipeline.
                        if resolved.disaggregation.is_some() { "per pool split it" } else { "split it, or a pipeline takes any count" }
                    ),
                ));
            }
        }
        // DP attention splits a MoE model's experts over the devices, in the engines that have it.
        if d.hardware.parallelism == Parallelism::DpAttention {
            use crate::model::engine::EngineKind as E;
            if !d.model.is_moe() {
                return Err(ScenarioError::new(
                    "hardware.parallelism",
                    format!("DP attention splits a mixture-of-experts model's experts over the devices; {} is dense — choose tensor", d.model.name),
                ));
            }
            if !matches!(d.engine.kind, E::Vllm | E::Sglang | E::TensorRtLlm) {
                return Err(ScenarioError::new(
                    "hardware.parallelism",
                    format!(
                        "{} has no DP attention (vLLM, SGLang and TensorRT-LLM have it) — choose {}",
                        d.engine.name,
                        if d.engine.kind == E::LlamaCpp { "its layer split" } else { "tensor" }
                    ),
                ));
            }
            // Each device takes an equal share of the experts: the counts that share them evenly, nearest first.
            let (n, e) = (d.hardware.devices, d.model.moe.experts);
            if n < 2 || !e.is_multiple_of(n) {
                // Ascending already: the four around the first one above `n` (no sort: the page keeps generic sorts out).
                let all: Vec<u32> = (2..=e.min(1024)).filter(|k| e.is_multiple_of(*k)).collect();
                let above = all.iter().position(|k| *k > n).unwrap_or(all.len());
                let from = above.saturating_sub(2).min(all.len().saturating_sub(4));
                let fits: Vec<String> = all.iter().skip(from).take(4).map(u32::to_string).collect();
                return Err(ScenarioError::new(
                    "hardware.parallelism",
                    format!(
                        "DP attention gives each device an equal share of {}'s {e} experts: {} — {}, or choose tensor",
                        d.model.name,
                        if n < 2 { "it needs 2 devices or more".to_string() } else { format!("{n} devices cannot share them evenly") },
                        if fits.is_empty() { "no device count shares them evenly".to_string() } else { format!("use {} devices", fits.join(", ")) }
                    ),
                ));
            }
        }
        if let Some(max) = over_window(&resolved.workload, resolved.max_context) {
            let w = &resolved.workload;
            let depth = if w.context_depth > 0.0 { format!(" + {:.0} of earlier context", w.context_depth) } else { String::new() };
            // The field that takes the total over: the earlier context where it alone fills the window (a teacher's
            // trial typed 10 000 000 there and read the message under Prompt), else the output where the prompt
            // fits with it — room left for the shortest output, 2 tokens (a pre-sales trial's 131,072-token prompt, the
            // whole window, was refused under Output) — else the prompt.
            let field = if w.context_depth >= f64::from(max) {
                "workload.context_depth"
            } else if w.context_depth + w.prompt_tokens + 2.0 <= f64::from(max) {
                "workload.output_tokens"
            } else {
                "workload.prompt_tokens"
            };
            // A length not given is the default's, said so (an operations trial's 10 000 000-token prompt, refused and
            // taken out, left "512 prompt + 10000000 output tokens" under the output it had not typed 512 for).
            let given = |v: Option<f64>| if v.is_some() { "" } else { " (the default)" };
            return Err(ScenarioError::new(
                field,
                format!(
                    "{:.0} prompt{} + {:.0} output tokens{}{depth} exceed {}'s context window of {max} tokens: an engine refuses such a request",
                    w.prompt_tokens,
                    given(self.workload.prompt_tokens),
                    w.output_tokens,
                    given(self.workload.output_tokens),
                    d.model.name
                ),
            ));
        }
        Ok(resolved)
    }
}

/// The context window `max` when a request of `w` (earlier context + prompt + output) is longer than it.
fn over_window(w: &Workload, max: Option<u32>) -> Option<u32> {
    max.filter(|&m| w.full_context() > f64::from(m))
}

/// The error of a scenario's JSON, named by the dotted path of the member it is in: from the top, the first
/// member that fails on its own (every member is optional, so a document holding only it deserializes when it
/// is valid), then the same within it while it is an object. The message is that member's own error. Only a
/// failed parse pays for the search; it keeps the wasm free of a path-tracking deserializer (the page's
/// largest dependency before).
fn located_error(doc: &serde_json::Value, whole: &serde_json::Error) -> ScenarioError {
    use serde_json::{Map, Value};
    // A document holding only the member at `path`.
    let only = |path: &[&str]| -> Value {
        let mut v = path.iter().try_fold(doc, |v, k| v.get(*k)).cloned().unwrap_or(Value::Null);
        for k in path.iter().rev() {
            let mut m = Map::new();
            m.insert((*k).to_string(), v);
            v = Value::Object(m);
        }
        v
    };
    let mut path: Vec<&str> = Vec::new();
    let mut error = None;
    while let Some(obj) = path.iter().try_fold(doc, |v, k| v.get(*k)).and_then(serde_json::Value::as_object) {
        // An object whose members cannot be read one by one (a tagged form that needs its tag and every field: each
        // key alone lacks the others) is reported as a whole (a bad-input trial: a sliding attention without
        // `local_fraction` had read "model.attention.type: missing field `window`").
        // (Only an object of plain values, as `moe` and `attention` are: one that holds objects is the parent of the
        // fault, which is named one level down; a review: "model: missing field" had hidden `model.moe`.)
        if !path.is_empty() && !obj.is_empty() && obj.values().all(|v| !v.is_object() && !v.is_array()) {
            if let Err(e) = Scenario::deserialize(&only(&path)) {
                let alone_lacking = obj.keys().all(|k| {
                    let mut p = path.clone();
                    p.push(k.as_str());
                    Scenario::deserialize(&only(&p)).is_err_and(|e| e.to_string().starts_with("missing field"))
                });
                if alone_lacking {
                    error = Some(e);
                    break;
                }
            }
        }
        let failing = obj.keys().find_map(|k| {
            let mut p = path.clone();
            p.push(k.as_str());
            Scenario::deserialize(&only(&p)).err().map(|e| (k.as_str(), e))
        });
        let Some((k, e)) = failing else { break };
        path.push(k);
        error = Some(e);
    }
    match error {
        Some(e) => ScenarioError::new(path.join("."), plain_type_error(&e.to_string())),
        None => ScenarioError::new("json", whole.to_string()),
    }
}

/// serde's "invalid type: floating point `2.5`, expected u32" in the page's words ("2.5 must be a whole number");
/// other messages as they are.
fn plain_type_error(msg: &str) -> String {
    // A negative count ("devices": -1): serde's "invalid value: integer `-1`, expected u32" (an operations trial read
    // it as library jargon).
    // One past the type's range ("devices": 1000000000000) is too large, not negative (a checking script read "must be a
    // whole number of 0 or more" for it).
    if let Some(v) = msg.strip_prefix("invalid value: integer `").and_then(|r| r.split_once("`, expected u")).map(|(v, _)| v) {
        return if v.starts_with('-') {
            format!("{v} is negative: this field takes a whole number of 0 or more")
        } else {
            format!("{v} is too large for this field")
        };
    }
    let Some(rest) = msg.strip_prefix("invalid type: ") else { return msg.to_string() };
    let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
    // A list, an object, true/false or null where a number goes: named as what it is (`[1, 2]` had read "\"sequence\" is
    // not a number").
    if matches!(expected, "u32" | "u64" | "f64") {
        let what = match got.split(' ').next().unwrap_or(got) {
            "sequence" => Some("a list"),
            "map" => Some("an object"),
            "boolean" => Some(if got.contains("true") { "true" } else { "false" }),
            "null" | "unit" => Some("null"),
            _ => None,
        };
        if let Some(what) = what {
            return format!("{what} is not a number: give one number");
        }
    }
    // The value serde quotes ("floating point `2.5`", "string \"abc\""), else its last word.
    let value = got.split(['`', '"']).nth(1).unwrap_or_else(|| got.rsplit(' ').next().unwrap_or(got));
    // A quoted number ("devices": "8") is a string, not a number to JSON: say so, not that 8 is not whole.
    let quoted = got.starts_with("string");
    match expected {
        "u32" | "u64" | "f64" if quoted && value.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
            format!("\"{value}\" is quoted: write the number without quotes ({value})")
        }
        // A whole number written with a point or an exponent (8.0, 1e9): JSON's integers have neither (an operations
        // trial read "1000000000.0 must be a whole number" for 1e9 devices).
        "u32" | "u64" if value.trim().parse::<f64>().is_ok_and(|v| v.is_finite() && v.fract() == 0.0 && v <= -1.0) => {
            format!("{value} is negative: this field takes a whole number of 0 or more")
        }
        "u32" if value.trim().parse::<f64>().is_ok_and(|v| v.is_finite() && v > f64::from(u32::MAX)) => {
            format!("{value} is too large for this field")
        }
        "u64" if value.trim().parse::<f64>().is_ok_and(|v| v.is_finite() && v > u64::MAX as f64) => format!("{value} is too large for this field"),
        "u32" | "u64" if value.trim().parse::<f64>().is_ok_and(|v| v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15) => {
            format!("{value} must be written as a whole number, without a point or an exponent: {:.0}", value.trim().parse::<f64>().unwrap_or(0.0))
        }
        "u32" | "u64" => format!("{value} must be a whole number"),
        "f64" => format!("\"{value}\" is not a number"),
        _ => msg.to_string(),
    }
}

#[cfg(test)]
mod duplicate_tests {
    use super::duplicate_key;

    /// The scan finds a key given twice in one object, nested or in an array's objects, and nothing where keys repeat
    /// across objects, inside strings (escaped quotes, a backslash ending a string) or as values.
    #[test]
    fn a_key_given_twice_is_found_where_it_is() {
        let d = |t: &str| duplicate_key(t).map(|(p, k)| format!("{p}|{k}"));
        assert_eq!(d(r#"{"a":1,"a":2}"#).as_deref(), Some("|a"));
        assert_eq!(d(r#"{"hw":{"p":"x","q":{"r":1},"p":"y"}}"#).as_deref(), Some("hw|p"));
        assert_eq!(d(r#"{"l":[{"x":1},{"x":2,"x":3}]}"#).as_deref(), Some("l|x"));
        assert_eq!(d(r#"{"a":{"p":1},"b":{"p":1},"c":[{"p":1},{"p":2}]}"#), None);
        assert_eq!(d(r#"{"a":"x\\","b":"\"a\", \"a\"","c":"a"}"#), None);
        assert_eq!(d(r#"{"a":"b","b":"a"}"#), None);
        assert_eq!(d(r#"{"a":{"b":{"c":1}},"d":{"b":{"c":1,"c":2}}}"#).as_deref(), Some("d.b|c"));
        // Escapes decode before keys compare (a review: `\u0065` had slipped a second "preset" past the scan).
        assert_eq!(d(r#"{"preset":"a","pr\u0065set":"b"}"#).as_deref(), Some("|preset"));
        assert_eq!(d(r#"{"a\"b":1,"a\u0022b":2}"#).as_deref(), Some("|a\"b"));
        assert_eq!(d(r#"{"a\\":1,"a":2}"#), None);
    }
}
