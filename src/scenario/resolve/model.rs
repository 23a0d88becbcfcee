//! Model shape: a preset and/or explicit numbers; a bare parameter count takes the nearest Llama-family shape.

use super::super::checks::{check, check_u, positive, unknown};
use super::super::*;
use crate::model::llm::{Attention, ModelShape};
use crate::presets;

/// Llama-family shapes by size, for models given only as a parameter count: (params B, layers, hidden, heads, kv heads, head dim).
const SHAPES: &[(f64, u32, u32, u32, u32, u32)] = &[
    (1.24, 16, 2048, 32, 8, 64),
    (3.21, 28, 3072, 24, 8, 128),
    (8.03, 32, 4096, 32, 8, 128),
    (14.7, 48, 5120, 40, 8, 128),
    (32.5, 64, 5120, 40, 8, 128),
    (70.6, 80, 8192, 64, 8, 128),
    (405.9, 126, 16384, 128, 8, 128),
];

pub(crate) fn resolve_model(s: &ModelSpec, defaults: &mut Vec<String>) -> Result<ModelShape, ScenarioError> {
    let p = match &s.preset {
        Some(id) => Some(presets::models::find(id).ok_or_else(|| {
            // A name the importers' guesser knows points at its preset (a trial pasted "llama-3.3-70b", which the
            // page's list shows as Llama-3.3-70B under the id llama-3.1-70b: one architecture).
            let e = unknown("model.preset", id, presets::models::MODELS.iter().map(|m| m.id));
            match presets::models::guess(id) {
                Some(m) => {
                    crate::scenario::ScenarioError::new("model.preset", format!("unknown id \"{id}\": did you mean \"{}\" ({})?", m.id, m.name))
                }
                None => e,
            }
        })?),
        None => None,
    };
    let params = match s.params_b.or(p.map(|p| p.params_b)) {
        // From 10 million parameters (the smallest language models are ~0.1 B) to 10 trillion (the largest ~2 T): a
        // teacher's trial typed 0.0001 and 100 000 B and read ceilings of 49 845 and 0.02 tok/s without a word.
        Some(v) => check("model.params_b", v, 0.01, 10_000.0, "billion parameters")?,
        None => return Err(ScenarioError::new("model.params_b", "required: give a model preset or the parameter count in billions")),
    };
    let moe = s.moe.or(p.map(|p| p.moe)).unwrap_or_default();
    if moe.experts > 0 || moe.experts_per_token > 0 {
        check_u("model.moe.experts", moe.experts, 2, 4096)?;
        check_u("model.moe.experts_per_token", moe.experts_per_token, 1, moe.experts - 1)?;
    }
    let is_moe = moe.experts > 0;
    let active = match (s.active_params_b, p.map(|p| p.active_params_b)) {
        (Some(v), _) => {
            let v = positive("model.active_params_b", v, 100_000.0, "billion parameters")?;
            if v > params {
                return Err(ScenarioError::new(
                    "model.active_params_b",
                    format!("{} B is more than params_b ({} B)", crate::model::units::fmt_num(v), crate::model::units::fmt_num(params)),
                ));
            }
            v
        }
        // A preset's active count belongs to its own size: a dense override of params_b moves it too.
        (None, Some(a)) if is_moe || s.params_b.is_none() => a.min(params),
        (None, _) if is_moe => return Err(ScenarioError::new("model.active_params_b", "required for a mixture-of-experts model")),
        (None, _) => params,
    };
    if !is_moe && (active - params).abs() > 1e-9 * params {
        return Err(ScenarioError::new(
            "model.active_params_b",
            format!("{active} differs from params_b {params}, but the model is dense: give model.moe (experts, experts_per_token) for a mixture of experts"),
        ));
    }
    if is_moe {
        // The always-read part must not be negative: active ≥ k · params / E.
        let min_active = f64::from(moe.experts_per_token) * params / f64::from(moe.experts);
        if active < min_active * (1.0 - 1e-9) {
            return Err(ScenarioError::new(
                "model.active_params_b",
                format!(
                    "{active} B is less than experts_per_token × params_b ÷ experts = {min_active:.3} B, which {} of {} experts alone would use",
                    moe.experts_per_token, moe.experts
                ),
            ));
        }
    }
    // Shape: explicit, else preset, else the nearest Llama-family shape by size.
    let nearest =
        SHAPES.iter().min_by(|a, b| (a.0.ln() - active.ln()).abs().total_cmp(&(b.0.ln() - active.ln()).abs())).copied().unwrap_or(SHAPES[2]);
    let layers = check_u("model.layers", s.layers.or(p.map(|p| p.layers)).unwrap_or(nearest.1), 1, 1000)?;
    let hidden = check_u("model.hidden", s.hidden.or(p.map(|p| p.hidden)).unwrap_or(nearest.2), 64, 200_000)?;
    let heads = check_u("model.attention_heads", s.attention_heads.or(p.map(|p| p.attention_heads)).unwrap_or(nearest.3), 1, 4096)?;
    // Untyped, the preset's or the nearest shape's KV heads, or the most up to them that divide the attention heads
    // (attention heads typed over a preset keep a valid grouping).
    let base_kv = p.map_or(nearest.4, |p| p.kv_heads);
    let default_kv = (1..=base_kv.min(heads)).rev().find(|k| heads.is_multiple_of(*k)).unwrap_or(1);
    let kv_heads = check_u("model.kv_heads", s.kv_heads.unwrap_or(default_kv), 1, heads)?;
    let shape_given = p.is_some() || (s.layers.is_some() && s.hidden.is_some());
    if !shape_given {
        defaults.push(format!(
            "model shape: {} layers, hidden {}, {} KV heads × {} (Llama-family shape nearest {:.1}B)",
            nearest.1, nearest.2, default_kv, nearest.5, active
        ));
    }

    if !heads.is_multiple_of(kv_heads) {
        let fits: Vec<String> = (1..=heads).filter(|k| heads.is_multiple_of(*k)).map(|k| k.to_string()).collect();
        return Err(ScenarioError::new(
            "model.kv_heads",
            format!(
                "{kv_heads} KV heads do not divide the {heads} attention heads: grouped-query attention gives every KV head the same number of query heads (allowed for {heads}: {})",
                fits.join(", ")
            ),
        ));
    }
    let head_dim = check_u("model.head_dim", s.head_dim.or(p.map(|p| p.head_dim)).unwrap_or(nearest.5), 8, 4096)?;
    let vocab = check_u("model.vocab", s.vocab.or(p.map(|p| p.vocab)).unwrap_or(128_256), 1, 10_000_000)?;
    let attention = s.attention.or(p.map(|p| p.attention)).unwrap_or(Attention::Full);
    match attention {
        Attention::Sliding { window, local_fraction } => {
            check_u("model.attention.window", window, 1, u32::MAX)?;
            check("model.attention.local_fraction", local_fraction, 0.0, 1.0, "")?;
        }
        Attention::Mla { kv_lora_rank, rope_dim } => {
            check_u("model.attention.kv_lora_rank", kv_lora_rank, 1, 65_536)?;
            check_u("model.attention.rope_dim", rope_dim, 0, 65_536)?;
        }
        Attention::Full => {}
    }
    // The shape's own parameters cannot outnumber the model's: the embedding table (and an untied output head of the
    // same size) and every layer's attention output projection (hidden × heads × head_dim) are a floor that every
    // dense or mixture-of-experts transformer carries (an audit: 1 B with 200 layers, hidden 16,384 and a vocabulary
    // of a million — 16.4 B in the embedding alone — had read as 0.5 GB of weights that fit). Checked where the shape
    // and vocabulary are given (typed or a preset's), not for the nearest shape assumed for a bare size.
    let tied = s.tied_embeddings.or(p.map(|p| p.tied_embeddings)).unwrap_or(false);
    if shape_given && (s.vocab.is_some() || p.is_some()) {
        let tables = if tied { 1.0 } else { 2.0 };
        let embedding = tables * f64::from(vocab) * f64::from(hidden) / 1e9;
        let attention_out = f64::from(layers) * f64::from(hidden) * f64::from(heads) * f64::from(head_dim) / 1e9;
        let least = embedding + attention_out;
        if params < 0.95 * least {
            let g = |x: f64| crate::model::units::fmt_num((x * 100.0).round() / 100.0);
            return Err(ScenarioError::new(
                // The field typed: the size, else the first shape field typed over a preset.
                match (s.params_b, s.vocab, s.hidden, s.layers, s.attention_heads, s.head_dim) {
                    (Some(_), ..) | (None, None, None, None, None, None) => "model.params_b",
                    (_, Some(_), ..) => "model.vocab",
                    (_, _, Some(_), ..) => "model.hidden",
                    (_, _, _, Some(_), ..) => "model.layers",
                    (_, _, _, _, Some(_), _) => "model.attention_heads",
                    _ => "model.head_dim",
                },
                format!(
                    "{} B parameters cannot hold this shape: its embedding table{} ({} × {}) alone is {} B and its layers' attention output projections ({layers} × {hidden} × {heads} heads × {head_dim}) {} B — give the model's real size, or its real layers, hidden size, heads and vocabulary",
                    g(params),
                    if tied { "" } else { " and output head" },
                    crate::model::units::fmt_num(f64::from(vocab)),
                    crate::model::units::fmt_num(f64::from(hidden)),
                    g(embedding),
                    g(attention_out)
                ),
            ));
        }
    }
    // A parameter count typed over a preset changes the weights, not the preset's shape (layers, KV heads): the
    // name says so, and so does a note (a new user typed 32 over Llama-3-8B and got reports named "Llama-3-8B"
    // with 64 GB of weights and the 8B's KV cache).
    let retyped = p.filter(|p| s.params_b.is_some_and(|v| (v / p.params_b - 1.0).abs() > 0.005));
    if let Some(p) = retyped {
        defaults.push(format!(
            "model: {} B typed over {}'s {} B — its shape (layers, KV heads, so the KV cache per token) stays the preset's; pick Custom to give another",
            crate::model::units::fmt_num(params),
            p.name,
            crate::model::units::fmt_num(p.params_b)
        ));
    }
    let preset_name = |p: &presets::models::ModelPreset| match retyped {
        Some(_) => format!("{} at {} B (typed)", p.name, crate::model::units::fmt_num(params)),
        None => p.name.to_string(),
    };
    Ok(ModelShape {
        name: s.name.clone().or(p.map(preset_name)).unwrap_or_else(|| format!("{params}B model")),
        params_b: params,
        active_params_b: active,
        layers,
        hidden,
        attention_heads: heads,
        kv_heads,
        head_dim,
        vocab,
        moe,
        attention,
        tied_embeddings: tied,
    })
}
