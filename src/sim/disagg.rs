//! Disaggregated prefill/decode serving (see the module docs of [`super`]).
