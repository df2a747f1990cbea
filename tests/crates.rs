//! The workspace's crates depend on one another in one order, lowest
//! first: each may use only the crates before it, in its code and in its
//! tests alike. Cargo refuses a cycle; this holds the order itself, so a
//! lower crate cannot start leaning on a higher one by a new line in its
//! manifest. `cargo test --test crates -- --nocapture` prints the graph.

use std::fs;
use std::path::Path;

/// The crates in their order, with the folder of each manifest.
const ORDER: [(&str, &str); 13] = [
    ("retry-core", "crates/core"),
    ("retry-sim", "crates/sim"),
    ("retry-analyses", "crates/analyses"),
    ("retry-teach", "crates/teach"),
    ("retry-draw", "crates/draw"),
    ("retry-export", "crates/export"),
    ("retry-cli", "crates/cli"),
    ("retry-view", "crates/view"),
    ("retry-playground-page", "page"),
    ("retry-playground-first", "first"),
    ("retry-playground-worker", "worker"),
    ("retry-playground-home", "home"),
    ("retry-playground", "."),
];

/// The workspace crates a manifest names in any of its dependency tables.
fn workspace_dependencies(manifest: &str) -> Vec<String> {
    let mut deps = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            // The workspace's own table lists every crate for the members
            // to inherit: it is nobody's dependency.
            let table = line.trim_matches(['[', ']']);
            in_dependencies = table.ends_with("dependencies") && table != "workspace.dependencies";
            continue;
        }
        if !in_dependencies {
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        if name.starts_with("retry-") {
            deps.push(name.to_string());
        }
    }
    deps
}

fn manifest(folder: &str) -> String {
    fs::read_to_string(Path::new(folder).join("Cargo.toml")).expect("a manifest")
}

/// Edges the layers forbid whatever the order allows, with why: a crate
/// and the crates it must never lean on. (Inside the simulator's crate,
/// `tests/module_graph.rs` holds that its modules never reach the link
/// codec.)
const FORBIDDEN: [(&str, &[&str], &str); 8] = [
    (
        "retry-core",
        &[
            "retry-sim",
            "retry-analyses",
            "retry-teach",
            "retry-draw",
            "retry-export",
            "retry-view",
        ],
        "core is the vocabulary every crate shares, and leans on none",
    ),
    (
        "retry-sim",
        &["retry-analyses", "retry-teach", "retry-view"],
        "the simulator runs one world",
    ),
    (
        "retry-analyses",
        &["retry-teach", "retry-draw", "retry-view"],
        "an analysis never sees a lesson or a chart",
    ),
    (
        "retry-teach",
        &["retry-draw", "retry-view"],
        "a lesson knows no page",
    ),
    (
        "retry-export",
        &["retry-teach", "retry-draw", "retry-view"],
        "an export is a library's configuration: no lesson, no picture, no page",
    ),
    (
        "retry-cli",
        &["retry-draw", "retry-view", "retry-playground-page"],
        "the command line prints numbers and words: it knows no chart and no page",
    ),
    (
        "retry-draw",
        &["retry-view", "retry-cli"],
        "a chart draws what it is given",
    ),
    (
        "retry-view",
        &["retry-cli", "retry-playground-page"],
        "the view decides what the page shows without a browser",
    ),
];

#[test]
fn no_crate_depends_on_what_its_layer_forbids() {
    for (from, forbidden, why) in FORBIDDEN {
        let (_, folder) = ORDER
            .iter()
            .find(|(name, _)| *name == from)
            .expect("a crate of the order");
        let deps = workspace_dependencies(&manifest(folder));
        for to in forbidden {
            assert!(ORDER.iter().any(|(name, _)| name == to), "{to} is no crate");
            assert!(
                !deps.iter().any(|d| d == to),
                "{from} depends on {to}: {why}"
            );
            println!("{from:>16} -/-> {to}");
        }
    }
}

/// No crate re-exports another's modules: a path names the crate it
/// comes from (`retry_sim::config`, never `retry_view::config`).
#[test]
fn no_crate_re_exports_another() {
    for (name, folder) in ORDER {
        for file in ["src/lib.rs", "src/main.rs"] {
            let Ok(text) = fs::read_to_string(Path::new(folder).join(file)) else {
                continue;
            };
            for line in text.lines().map(str::trim) {
                assert!(
                    !(line.starts_with("pub use retry_") || line.starts_with("pub extern crate")),
                    "{name} re-exports another crate: {line}"
                );
            }
        }
    }
}

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    for (rank, (name, folder)) in ORDER.iter().enumerate() {
        let text = manifest(folder);
        assert!(
            text.contains(&format!("name = \"{name}\"")),
            "{folder}/Cargo.toml is not {name}"
        );
        let deps = workspace_dependencies(&text);
        for dep in &deps {
            let below = ORDER[..rank].iter().any(|(lower, _)| lower == dep);
            assert!(below, "{name} depends on {dep}, which is not below it");
        }
        println!("{name:>22} -> {}", deps.join(" "));
    }
}

#[test]
fn every_crate_of_the_workspace_has_its_place_in_the_order() {
    let mut folders: Vec<String> = fs::read_dir("crates")
        .expect("crates/")
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| format!("crates/{}", e.file_name().to_string_lossy()))
        .collect();
    folders.sort();
    let mut placed: Vec<String> = ORDER
        .iter()
        .map(|(_, folder)| folder.to_string())
        .filter(|f| f.starts_with("crates/"))
        .collect();
    placed.sort();
    assert_eq!(folders, placed);
}

#[test]
fn a_dependency_is_read_in_every_form_a_manifest_writes_it() {
    let text = "[workspace.dependencies]\nretry-draw = { path = \"d\" }\n\
                [package]\nname = \"x\"\n[dependencies]\nretry-core.workspace = true\n\
                retry-sim = { path = \"../sim\" }\nserde = \"1\"\n\
                [dev-dependencies]\nretry-teach.workspace = true\n\
                [target.'cfg(target_arch = \"wasm32\")'.dependencies]\nretry-view = { path = \"v\" }\n\
                [features]\nretry-x = []\n";
    assert_eq!(
        workspace_dependencies(text),
        ["retry-core", "retry-sim", "retry-teach", "retry-view"]
    );
}
