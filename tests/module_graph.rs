//! Each crate's top-level modules import one another without a cycle, so
//! each can be read (and changed) knowing only the modules below it; the
//! crates themselves keep their order by their manifests (tests/crates.rs).
//!
//! The graph is read from the source: a module depends on another when its
//! code (comments and `#[cfg(test)]` modules aside) names `crate::other`.
//! `cargo test --test module_graph -- --nocapture` prints it, lowest
//! modules first.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The code of a source file that is not a comment or a test module.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut skipping_tests = false;
    let mut depth = 0i64;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if !skipping_tests && trimmed.starts_with("#[cfg(test)]") {
            skipping_tests = true;
            depth = 0;
            continue;
        }
        if skipping_tests {
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            // The test item ends where its braces close (or at its `;`).
            if depth <= 0 && (line.contains('}') || line.trim_end().ends_with(';')) {
                skipping_tests = false;
            }
            continue;
        }
        let without_comment = line.split("//").next().unwrap_or("");
        out.push_str(without_comment);
        out.push('\n');
    }
    out
}

/// The files of modules declared only for tests (`#[cfg(test)] mod name;`
/// in `folder/mod.rs` is `folder/name.rs`), whose imports are the tests'.
fn test_files(files: &[std::path::PathBuf]) -> BTreeSet<std::path::PathBuf> {
    let mut tests = BTreeSet::new();
    for path in files {
        let text = std::fs::read_to_string(path).expect("a readable source file");
        let folder = match path.file_stem().and_then(|s| s.to_str()) {
            Some("mod" | "lib" | "main") => path.parent().map(Path::to_path_buf),
            _ => path
                .parent()
                .map(|p| p.join(path.file_stem().expect("a file stem"))),
        };
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            let declared = pair[1]
                .strip_prefix("mod ")
                .or_else(|| pair[1].strip_prefix("pub(crate) mod "))
                .or_else(|| pair[1].strip_prefix("pub(super) mod "))
                .and_then(|rest| rest.strip_suffix(';'));
            if let (true, Some(name), Some(folder)) = (pair[0] == "#[cfg(test)]", declared, &folder)
            {
                tests.insert(folder.join(format!("{name}.rs")));
            }
        }
    }
    tests
}

/// The top-level modules each names with `crate::`.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let mut folders = vec![src.to_path_buf()];
    let mut sources = Vec::new();
    while let Some(path) = folders.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("a readable source folder") {
                folders.push(entry.expect("a folder entry").path());
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            sources.push(path);
        }
    }
    let tests = test_files(&sources);
    for path in sources {
        if tests.contains(&path) {
            continue;
        }
        let relative = path.strip_prefix(src).expect("under src/");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|name| name.trim_end_matches(".rs").to_string())
            .expect("a file name");
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        let code = code(&text);
        let deps = graph.entry(top.clone()).or_default();
        // In a top-level module's own file, `super::` is the crate's root.
        let parts = relative.components().count();
        let at_top = parts == 1 || (parts == 2 && relative.ends_with("mod.rs"));
        let roots: &[&str] = if at_top {
            &["crate::", "super::"]
        } else {
            &["crate::"]
        };
        for (at, root) in roots
            .iter()
            .flat_map(|root| code.match_indices(root).map(move |(at, _)| (at, *root)))
        {
            let name: String = code[at + root.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != top {
                deps.insert(name);
            }
        }
    }
    graph
}

/// The modules in an order where each comes after all it imports, or the
/// modules left on a cycle.
fn layers(graph: &Graph) -> Result<Vec<String>, Vec<String>> {
    let mut placed: Vec<String> = Vec::new();
    let mut left: BTreeSet<&String> = graph.keys().collect();
    while !left.is_empty() {
        let ready: Vec<&String> = left
            .iter()
            .copied()
            .filter(|m| {
                graph[*m]
                    .iter()
                    .all(|d| placed.contains(d) || !graph.contains_key(d))
            })
            .collect();
        if ready.is_empty() {
            return Err(left.into_iter().cloned().collect());
        }
        for m in ready {
            left.remove(m);
            placed.push(m.clone());
        }
    }
    Ok(placed)
}

#[test]
fn top_level_modules_import_one_another_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources: Vec<_> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|entry| entry.path().join("src"))
        .collect();
    sources.sort();
    for src in sources {
        // The layers below, re-exported at a crate's root, are no nodes
        // of its graph: the crates' order holds them (tests/crates.rs).
        let graph = graph(&src);
        let order = layers(&graph).unwrap_or_else(|cycle| {
            panic!(
                "{}: these modules import one another in a cycle: {cycle:?}\n{graph:#?}",
                src.display()
            )
        });
        println!("{}", src.display());
        for module in &order {
            let deps: Vec<&str> = graph[module]
                .iter()
                .filter(|d| graph.contains_key(*d))
                .map(String::as_str)
                .collect();
            println!("{module:>12} -> {}", deps.join(" "));
        }
    }
}

/// The simulator runs a world: its modules (the engine, one run of a
/// configuration, the report's numbers, the parameter table) never import
/// the link codec and its notices, which read and write what people share.
#[test]
fn the_simulator_never_imports_the_link_codec() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = graph(&root.join("crates/sim/src"));
    assert!(graph.contains_key("link"), "{graph:#?}");
    for module in ["sim", "simulate", "metrics", "config"] {
        let mut seen = BTreeSet::new();
        let mut next = vec![module.to_string()];
        while let Some(at) = next.pop() {
            assert_ne!(at, "link", "{module} reaches the link codec: {graph:#?}");
            if seen.insert(at.clone()) {
                next.extend(graph.get(&at).into_iter().flatten().cloned());
            }
        }
    }
}

#[test]
fn a_cycle_is_found() {
    let mut graph = Graph::new();
    graph.insert("a".into(), ["b".to_string()].into());
    graph.insert("b".into(), ["c".to_string()].into());
    graph.insert("c".into(), ["a".to_string()].into());
    graph.insert("leaf".into(), BTreeSet::new());
    assert_eq!(
        layers(&graph),
        Err(vec!["a".into(), "b".into(), "c".into()])
    );
    graph.get_mut("c").expect("c").clear();
    assert_eq!(
        layers(&graph),
        Ok(vec!["c".into(), "leaf".into(), "b".into(), "a".into()])
    );
}

#[test]
fn comments_and_test_modules_are_not_imports() {
    let text = "use crate::sim;\n// crate::view\n#[cfg(test)]\nmod tests {\n    use crate::lesson;\n}\nfn f() { crate::policy::x(); }\n";
    let code = code(text);
    assert!(code.contains("crate::sim") && code.contains("crate::policy"));
    assert!(!code.contains("crate::view") && !code.contains("crate::lesson"));
}
