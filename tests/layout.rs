//! The README's layout table against the tree: every path a row names
//! exists, and every file of the code (the library, the page crate, the
//! page's own files, the examples and the scripts) has a row.

use std::fs;
use std::path::Path;

/// The paths the layout table's first column names.
fn named() -> Vec<String> {
    let readme = fs::read_to_string("README.md").expect("README.md");
    let layout = readme
        .split("\n## Layout")
        .nth(1)
        .expect("a Layout section");
    layout
        .lines()
        .filter(|line| line.starts_with("| `"))
        .flat_map(|line| {
            let first = line.split('|').nth(1).unwrap_or("").to_string();
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn files(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn the_layout_table_names_the_tree_and_only_it() {
    let named = named();
    assert!(named.len() > 80, "{} rows read", named.len());
    let missing: Vec<&String> = named.iter().filter(|p| !Path::new(p).exists()).collect();
    assert!(missing.is_empty(), "rows naming nothing: {missing:?}");
    let mut tree = vec!["index.html".to_string(), "page/Cargo.toml".to_string()];
    for dir in ["crates", "page/src", "examples", "www", "scripts"] {
        files(Path::new(dir), &mut tree);
    }
    let unnamed: Vec<&String> = tree.iter().filter(|f| !named.contains(f)).collect();
    assert!(
        unnamed.is_empty(),
        "files with no row in README's layout: {unnamed:?}"
    );
}
