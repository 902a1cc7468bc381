//! Truncated and byte-mutated copies of real files never panic or hang: every parser either
//! loads them or returns an error. Runs a bounded number of proptest cases (PROPTEST_CASES).

use skelview_test_support as support;

use std::sync::Arc;

use proptest::prelude::*;
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn mem(name: &str, bytes: Vec<u8>) -> Source {
    Source::Memory { name: name.into(), bytes: Arc::from(bytes) }
}

/// Seed files: the bundled sample always, small corpus files when the corpus is present.
fn seeds(dir: &str, names: &[&str]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    if let Some(corpus) = support::corpus() {
        for n in names {
            let bytes = std::fs::read(corpus.join(dir).join(n)).unwrap();
            // Big files are cut to keep each case fast; the cut itself is a truncation case.
            v.push(bytes[..bytes.len().min(64 << 10)].to_vec());
        }
    }
    v
}

fn bvh_seeds() -> Vec<Vec<u8>> {
    let mut v = vec![skelview_core::formats::SAMPLE_BVH.to_vec()];
    v.extend(seeds(
        "bvh",
        &[
            "bvhio_example.bvh",
            "bandai1_walk_normal_002.bvh",
            "mixamo_freebvh_20tab.bvh",
            "manipnet_cup1_rootonly.bvh",
            "perceptionneuron_down_1Char00.bvh",
        ],
    ));
    v
}

/// Applies a truncation and byte edits; edits favour bytes that matter to the grammars.
fn mutate(mut bytes: Vec<u8>, cut: f64, edits: &[(f64, u8)]) -> Vec<u8> {
    const INTERESTING: &[u8] = b"{}:-.eE0123456789 \n\t\r#()nNaI\x00\xff";
    for &(pos, b) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = ((bytes.len() - 1) as f64 * pos) as usize;
        bytes[i] = if b < 128 { INTERESTING[b as usize % INTERESTING.len()] } else { b };
    }
    let keep = (bytes.len() as f64 * cut) as usize;
    bytes.truncate(keep.max(1).min(bytes.len()));
    bytes
}

fn load(request: LoadRequest) {
    // Either outcome is fine; a panic fails the test, a hang times out the run.
    let _ = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn bvh_never_panics(seed in 0usize..64, cut in 0.0f64..=1.0, edits in prop::collection::vec((0.0f64..1.0, any::<u8>()), 0..12)) {
        let seeds = bvh_seeds();
        let bytes = mutate(seeds[seed % seeds.len()].clone(), cut, &edits);
        load(LoadRequest::single(&skelview_core::formats::bvh::Bvh, mem("fuzz.bvh", bytes)));
    }

    #[test]
    fn asf_amc_never_panic(which in 0usize..2, cut in 0.0f64..=1.0, edits in prop::collection::vec((0.0f64..1.0, any::<u8>()), 0..12)) {
        let (Some(asf), Some(amc)) = (seeds("asfamc", &["hdm05_HDM_dg.asf"]).pop(), seeds("asfamc", &["hdm05_HDM_dg_06-03_03_120.amc"]).pop()) else {
            return Ok(());
        };
        let (asf, amc) = if which == 0 { (mutate(asf, cut, &edits), amc) } else { (asf, mutate(amc, cut, &edits)) };
        load(LoadRequest { format: &skelview_core::formats::acclaim::Acclaim, sources: vec![mem("fuzz.asf", asf), mem("fuzz.amc", amc)] });
    }
}

#[test]
fn every_prefix_of_a_small_file_loads_or_fails_cleanly() {
    let sample = skelview_core::formats::SAMPLE_BVH;
    let text = &sample[..sample.len().min(6000)];
    for cut in 0..text.len() {
        load(LoadRequest::single(&skelview_core::formats::bvh::Bvh, mem("cut.bvh", text[..cut].to_vec())));
    }
}

#[test]
fn binary_junk_is_rejected_with_a_location() {
    let junk: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    for name in ["junk.bvh", "junk.asf"] {
        let request = if name.ends_with(".bvh") {
            LoadRequest::single(&skelview_core::formats::bvh::Bvh, mem(name, junk.clone()))
        } else {
            LoadRequest::single(&skelview_core::formats::acclaim::Acclaim, mem(name, junk.clone()))
        };
        let e = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).expect_err("junk must not load");
        assert!(e.to_string().starts_with(&format!("{name}:1:")), "{e}");
    }
}
