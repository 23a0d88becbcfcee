//! Model presets: every model of `models.csv` (Hugging Face `config.json` values, each with its source).

use super::guess::Rule;
use crate::model::llm::{Attention, Moe};

/// One model shape from the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPreset {
    pub id: &'static str,
    pub name: &'static str,
    pub hf_repo: &'static str,
    pub params_b: f64,
    pub active_params_b: f64,
    pub layers: u32,
    pub hidden: u32,
    pub attention_heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    pub vocab: u32,
    pub max_context: u32,
    pub moe: Moe,
    pub attention: Attention,
    pub tied_embeddings: bool,
    /// The weight format the model is released in (a `quantization.weights` id): the default for serving engines.
    pub native_weights: &'static str,
    pub source: &'static str,
}

pub use super::models_table::MODELS;

/// Finds a model by id (case-insensitive).
#[must_use]
pub fn find(id: &str) -> Option<&'static ModelPreset> {
    MODELS.iter().find(|m| m.id.eq_ignore_ascii_case(id))
}

/// Model families whose name may be glued to the version (`llama3.1`, `qwen2.5`, `gemma3`, llama.cpp's
/// `qwen3moe`, `deepseek2`).
const FAMILIES: &[&str] = &["llama", "mixtral", "mistral", "qwen", "deepseek", "gemma", "phi", "falcon"];

/// Derivatives whose shape is not the base model's (distilled into another architecture, vision towers, draft
/// heads, embedding and reward models): never guessed.
const NOT_THE_BASE: &[&str] = &["distill", "vl", "vision", "embed", "embedding", "reward", "eagle", "eagle3", "medusa", "draft"];

/// How a name is recognised: `family:` the first model family named, `v:` the version right after it (empty
/// when none), `size:` each parameter count (`8b`, `8x7b`; empty when none), plus the name's own tokens.
const MODEL_RULES: &[Rule] = &[
    Rule { id: "llama-2-7b", all: &["family:llama", "v:2", "size:7b"], none: &[] },
    Rule { id: "llama-2-13b", all: &["family:llama", "v:2", "size:13b"], none: &[] },
    Rule { id: "llama-2-70b", all: &["family:llama", "v:2", "size:70b"], none: &[] },
    // llama-bench writes `llama 8B`: no other Llama has 8B parameters. `llama 7B` / `llama 70B` stay ambiguous
    // (Llama 1/2, Mistral; Llama 2/3).
    Rule { id: "llama-3.1-8b", all: &["family:llama", "v:3|v:3.1|v:", "size:8b"], none: &[] },
    Rule { id: "llama-3.1-70b", all: &["family:llama", "v:3|v:3.1|v:3.3", "size:70b"], none: &[] },
    Rule { id: "llama-3.1-405b", all: &["family:llama", "v:3.1|v:", "size:405b"], none: &[] },
    Rule { id: "llama-4-scout", all: &["family:llama", "v:4", "scout"], none: &[] },
    Rule { id: "llama-4-maverick", all: &["family:llama", "v:4", "maverick"], none: &[] },
    Rule { id: "mistral-7b", all: &["family:mistral", "size:7b"], none: &[] },
    // llama.cpp names Mixtral's architecture `llama`.
    Rule { id: "mixtral-8x7b", all: &["family:mixtral|family:llama", "size:8x7b"], none: &[] },
    Rule { id: "mixtral-8x22b", all: &["family:mixtral|family:llama", "size:8x22b"], none: &[] },
    Rule { id: "qwen2.5-7b", all: &["family:qwen", "v:2.5", "size:7b"], none: &[] },
    Rule { id: "qwen2.5-14b", all: &["family:qwen", "v:2.5", "size:14b"], none: &[] },
    Rule { id: "qwen2.5-32b", all: &["family:qwen", "v:2.5", "size:32b"], none: &[] },
    Rule { id: "qwen2.5-72b", all: &["family:qwen", "v:2.5", "size:72b"], none: &[] },
    Rule { id: "qwen3-8b", all: &["family:qwen", "v:3", "size:8b"], none: &[] },
    Rule { id: "qwen3-32b", all: &["family:qwen", "v:3", "size:32b"], none: &[] },
    Rule { id: "qwen3-30b-a3b", all: &["family:qwen", "v:3", "size:30b", "a3b"], none: &[] },
    Rule { id: "qwen3-235b-a22b", all: &["family:qwen", "v:3", "size:235b", "a22b"], none: &[] },
    // DeepSeek-V3, V3.1, R1 share one shape; llama.cpp calls the architecture `deepseek2` with 671B parameters.
    Rule { id: "deepseek-v3", all: &["family:deepseek", "v3|v3.1|r1|size:671b"], none: &[] },
    Rule { id: "gemma-2-9b", all: &["family:gemma", "v:2", "size:9b"], none: &[] },
    Rule { id: "gemma-2-27b", all: &["family:gemma", "v:2", "size:27b"], none: &[] },
    Rule { id: "gemma-3-4b", all: &["family:gemma", "v:3", "size:4b"], none: &[] },
    Rule { id: "gemma-3-27b", all: &["family:gemma", "v:3", "size:27b"], none: &[] },
    Rule { id: "phi-3-mini", all: &["family:phi", "v:3", "mini"], none: &[] },
    Rule { id: "phi-3-medium", all: &["family:phi", "v:3", "medium"], none: &[] },
    Rule { id: "phi-4", all: &["family:phi", "v:4"], none: &["mini", "multimodal"] },
    Rule { id: "gpt-oss-20b", all: &["gpt", "oss", "size:20b"], none: &[] },
    Rule { id: "gpt-oss-120b", all: &["gpt", "oss", "size:120b"], none: &[] },
    Rule { id: "gpt-j-6b", all: &["gpt", "j", "size:6b"], none: &[] },
    Rule { id: "falcon-180b", all: &["family:falcon", "size:180b"], none: &[] },
];

/// A parameter count token: `8b`, `0.5b`, `8x7b`.
fn is_size(t: &str) -> bool {
    let Some(body) = t.strip_suffix('b') else { return false };
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.') && s.starts_with(|c: char| c.is_ascii_digit());
    plain(body) || body.split_once('x').is_some_and(|(n, e)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) && plain(e))
}

/// The preset a model name most likely refers to: a Hugging Face id (`meta-llama/Meta-Llama-3.1-8B-Instruct`,
/// `Qwen/Qwen3-32B-FP8`), a local path or GGUF file name, or llama-bench's `model_type` (`llama 8B Q4_K -
/// Medium`). Quantised and fine-tuned variants of a preset's model match it (same shape); names that could be
/// several presets, distilled or multimodal derivatives, and unknown models give `None`.
#[must_use]
pub fn guess(name: &str) -> Option<&'static ModelPreset> {
    // The last part of a path or Hugging Face id, without a GGUF extension.
    let base = name.trim().rsplit(['/', '\\']).next().unwrap_or("");
    let base = base.strip_suffix(".gguf").or_else(|| base.strip_suffix(".GGUF")).unwrap_or(base);
    let mut toks: Vec<String> = Vec::new();
    for t in super::guess::tokens(base) {
        // `llama3.1` → `llama`, `3.1`; `qwen3moe` → `qwen`, `3moe`.
        match FAMILIES.iter().find(|f| t.len() > f.len() && t.starts_with(**f) && t[f.len()..].starts_with(|c: char| c.is_ascii_digit())) {
            Some(f) => {
                toks.push((*f).to_string());
                toks.push(t[f.len()..].to_string());
            }
            None => toks.push(t),
        }
    }
    // A quantisation names the end of the model's name; what follows describes it (llama-bench's `Q4_K - Medium`
    // is no Phi-3-medium).
    let is_quant = |t: &String| t.trim_start_matches('i').strip_prefix('q').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
    if let Some(q) = toks.iter().position(is_quant) {
        toks.truncate(q);
    }
    if toks.iter().any(|t| NOT_THE_BASE.contains(&t.as_str())) {
        return None;
    }
    let mut features = Vec::new();
    if let Some(i) = toks.iter().position(|t| FAMILIES.contains(&t.as_str())) {
        features.push(format!("family:{}", toks[i]));
        let next = toks.get(i + 1).map(|t| t.strip_suffix("moe").unwrap_or(t));
        let version = next.filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.')).unwrap_or("");
        features.push(format!("v:{version}"));
    }
    let sizes: Vec<String> = toks.iter().filter(|t| is_size(t)).map(|t| format!("size:{t}")).collect();
    if sizes.is_empty() {
        features.push("size:".into());
    }
    features.extend(sizes);
    toks.extend(features);
    let id = super::guess::unique(MODEL_RULES, &toks)?;
    find(id)
}

/// The parameter count a name states, in billions (`Qwen2.5-3B-Instruct` → 3, `Llama-3.2-1B` → 1), when it states
/// exactly one plain count (`8x7b`, `a3b` and names with two counts give `None`).
#[must_use]
pub fn stated_params_b(name: &str) -> Option<f64> {
    let base = name.trim().rsplit(['/', '\\']).next().unwrap_or("");
    let mut counts =
        super::guess::tokens(base).into_iter().filter(|t| is_size(t) && !t.contains('x')).filter_map(|t| t[..t.len() - 1].parse::<f64>().ok());
    let first = counts.next()?;
    counts.all(|c| c == first).then_some(first).filter(|c| *c > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_names_a_preset() {
        for r in MODEL_RULES {
            assert!(find(r.id).is_some(), "{}", r.id);
        }
    }

    #[test]
    fn guesses_realistic_names() {
        for (name, id) in [
            ("meta-llama/Meta-Llama-3.1-8B-Instruct", Some("llama-3.1-8b")),
            ("meta-llama/Llama-3.1-8B-Instruct", Some("llama-3.1-8b")),
            ("meta-llama/Meta-Llama-3-8B", Some("llama-3.1-8b")),
            ("/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", Some("llama-3.1-8b")),
            ("llama 8B Q4_K - Medium", Some("llama-3.1-8b")),
            ("llama3.1:8b", Some("llama-3.1-8b")),
            ("NousResearch/Hermes-3-Llama-3.1-8B", Some("llama-3.1-8b")),
            ("meta-llama/Llama-3.1-70B-Instruct", Some("llama-3.1-70b")),
            ("RedHatAI/Llama-3.3-70B-Instruct-quantized.w4a16", Some("llama-3.1-70b")),
            ("meta-llama/Llama-2-7b-chat-hf", Some("llama-2-7b")),
            ("meta-llama/Llama-4-Scout-17B-16E-Instruct", Some("llama-4-scout")),
            ("Qwen/Qwen3-32B-FP8", Some("qwen3-32b")),
            ("Qwen/Qwen3-30B-A3B", Some("qwen3-30b-a3b")),
            ("qwen3moe 30B.A3B Q4_K - Medium", Some("qwen3-30b-a3b")),
            ("Qwen/Qwen2.5-72B-Instruct-AWQ", Some("qwen2.5-72b")),
            ("mistralai/Mistral-7B-Instruct-v0.3", Some("mistral-7b")),
            ("mistralai/Mixtral-8x7B-Instruct-v0.1", Some("mixtral-8x7b")),
            ("llama 8x7B Q4_K - Medium", Some("mixtral-8x7b")),
            ("deepseek-ai/DeepSeek-R1-0528", Some("deepseek-v3")),
            ("deepseek-ai/DeepSeek-V3", Some("deepseek-v3")),
            ("deepseek2 671B Q4_K - Medium", Some("deepseek-v3")),
            ("google/gemma-3-27b-it", Some("gemma-3-27b")),
            ("gemma3 4B Q4_K - Medium", Some("gemma-3-4b")),
            ("openai/gpt-oss-20b", Some("gpt-oss-20b")),
            ("gpt-oss 120B MXFP4 MoE", Some("gpt-oss-120b")),
            ("microsoft/Phi-3-mini-4k-instruct", Some("phi-3-mini")),
            ("microsoft/phi-4", Some("phi-4")),
            // Negatives: ambiguous, other sizes, other architectures, derivatives.
            ("llama 7B Q4_0", None),
            ("llama 70B Q4_K - Medium", None),
            ("meta-llama/Llama-3.2-3B-Instruct", None),
            ("meta-llama/Llama-3.2-11B-Vision-Instruct", None),
            ("Qwen/Qwen2-7B-Instruct", None),
            ("Qwen/Qwen2.5-VL-7B-Instruct", None),
            ("Qwen/Qwen2.5-0.5B-Instruct", None),
            ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", None),
            ("deepseek-ai/DeepSeek-V2-Lite", None),
            ("mistralai/Mistral-Nemo-Instruct-2407", None),
            ("microsoft/Phi-4-mini-instruct", None),
            ("phi3 14B Q4_K - Medium", None),
            ("phi3 3B Q4_K - Medium", None),
            ("bartowski/Phi-3-medium-4k-instruct-GGUF", Some("phi-3-medium")),
            ("codellama/CodeLlama-7b-hf", None),
            ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", None),
            ("google/gemma-3n-E4B-it", None),
            ("my-finetune", None),
            ("", None),
        ] {
            assert_eq!(guess(name).map(|p| p.id), id, "{name}");
        }
    }

    #[test]
    fn reads_a_stated_parameter_count() {
        assert_eq!(stated_params_b("Qwen/Qwen2.5-3B-Instruct"), Some(3.0));
        assert_eq!(stated_params_b("Qwen/Qwen2.5-0.5B"), Some(0.5));
        assert_eq!(stated_params_b("llama 70B Q4_K - Medium"), Some(70.0));
        assert_eq!(stated_params_b("Qwen/Qwen3-30B-A3B"), Some(30.0));
        assert_eq!(stated_params_b("mistralai/Mixtral-8x7B-v0.1"), None);
        assert_eq!(stated_params_b("mistralai/Mistral-Nemo-Instruct-2407"), None);
    }
}
