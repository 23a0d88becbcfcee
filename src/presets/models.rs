//! Model presets: every model of `models.csv` (Hugging Face `config.json` values, each with its source).

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
