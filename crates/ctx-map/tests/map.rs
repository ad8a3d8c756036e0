//! The repository map end to end, on fixture trees and on this repository.

use std::path::Path;

use ctx_core::Workspace;
use ctx_map::map::{MapOptions, RepoMap, map};

/// Write `files` (path, text) under a new temp folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// A workspace for `root` whose cache is in `cache` (nothing written to `root`).
fn open(root: &Path, cache: &Path) -> Workspace {
    Workspace::open_in_cache(root, cache).unwrap()
}

fn run(ws: &mut Workspace, options: &MapOptions) -> RepoMap {
    map(ws, options, None).unwrap()
}

const SHOP: &[(&str, &str)] = &[
    ("README.md", "# Shop\n"),
    ("pyproject.toml", "[project]\nname = \"shop\"\n[tool.pytest.ini_options]\n"),
    (
        "shop/config.py",
        "def parse_config(path):\n    return load_settings(path)\n\ndef load_settings(path):\n    return {}\n",
    ),
    (
        "shop/cart.py",
        "from shop.models import Product\n\nclass Cart:\n    def add(self, product: Product):\n        self.items.append(product)\n\n    def total(self):\n        return sum_prices(self.items)\n",
    ),
    (
        "shop/models.py",
        "class Product:\n    def __init__(self, price):\n        self.price = price\n\ndef sum_prices(items):\n    return sum(i.price for i in items)\n",
    ),
    (
        "shop/checkout.py",
        "from shop.cart import Cart\n\ndef checkout(cart: Cart):\n    return cart.total()\n",
    ),
    (
        "shop/admin.py",
        "def render_dashboard():\n    return describe_inventory()\n\ndef describe_inventory():\n    return []\n",
    ),
    ("shop/broken.py", "def still_found():\n    pass\n\ndef broken(:\n"),
    ("tools/report.go", "package tools\n\nfunc WeeklyReport() string {\n\treturn \"\"\n}\n"),
];

#[test]
fn a_query_naming_an_identifier_ranks_its_definer_first() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let options =
        MapOptions { query: Some("parse_config fails on a missing path".into()), ..MapOptions::default() };
    let map = run(&mut ws, &options);
    assert_eq!(map.files[0].path, "shop/config.py", "{}", map.text);
    assert!(!dir.path().join(".ctx").exists(), "nothing written into the repository");
}

#[test]
fn a_focus_files_neighbours_rise() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let rank_of =
        |map: &RepoMap, path: &str| map.files.iter().find(|f| f.path == path).map_or(0.0, |f| f.rank);
    let plain = run(&mut ws, &MapOptions { tokens: 4000, ..MapOptions::default() });
    let focused = run(
        &mut ws,
        &MapOptions { tokens: 4000, focus: vec!["shop/checkout.py".into()], ..MapOptions::default() },
    );
    // checkout.py uses Cart (cart.py); admin.py is no neighbour.
    assert!(rank_of(&focused, "shop/cart.py") > rank_of(&plain, "shop/cart.py"));
    let position = |map: &RepoMap, path: &str| map.files.iter().position(|f| f.path == path).unwrap();
    assert!(position(&focused, "shop/cart.py") < position(&focused, "shop/admin.py"));
    let err = ctx_map::map::map(
        &mut ws,
        &MapOptions { focus: vec!["nope.py".into()], ..MapOptions::default() },
        None,
    )
    .unwrap_err();
    assert!(err.to_string().contains("nope.py"), "{err}");
}

#[test]
fn broken_and_unsupported_files_still_show_and_a_second_run_parses_nothing() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let first = run(&mut ws, &MapOptions { tokens: 8000, ..MapOptions::default() });
    assert_eq!((first.index.parsed, first.index.cached), (7, 0), "{:?}", first.index);
    assert_eq!(first.index.syntax_errors, 1);
    assert_eq!(first.index.line_scanned, 1);
    assert!(first.text.contains("def still_found():"), "{}", first.text);
    assert!(first.text.contains("func WeeklyReport() string"), "{}", first.text);
    assert!(first.text.contains("Stack: Python (pyproject.toml), pytest (pyproject.toml)"), "{}", first.text);
    // Another process, same cache: nothing parsed again.
    drop(ws);
    let mut ws = open(dir.path(), cache.path());
    let second = run(&mut ws, &MapOptions { tokens: 8000, ..MapOptions::default() });
    assert_eq!((second.index.parsed, second.index.cached), (0, 7));
    assert_eq!(second.text, first.text);
    // One file changed: one parse.
    std::fs::write(dir.path().join("shop/admin.py"), "def render_dashboard():\n    return 1\n").unwrap();
    let third = run(&mut ws, &MapOptions { tokens: 8000, ..MapOptions::default() });
    assert_eq!((third.index.parsed, third.index.cached), (1, 6));
}

/// This repository's own sources: a real corpus every checkout has.
fn this_repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().parent().unwrap()
}

#[test]
fn budgets_are_filled_to_within_five_percent() {
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(this_repo(), cache.path());
    for budget in [256, 512, 1024, 2048, 4096, 8192] {
        let map = run(&mut ws, &MapOptions { tokens: budget, ..MapOptions::default() });
        let exact = ctx_core::tokens::Tokenizer::count(&ctx_core::tokens::O200k, &map.text);
        assert_eq!(map.tokens, exact);
        assert!(exact <= budget && exact * 100 >= budget * 95, "{budget}: {exact} tokens");
    }
}

#[test]
fn a_small_budget_is_never_exceeded() {
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(this_repo(), cache.path());
    for budget in [1, 4, 16, 32, 64, 100, 150] {
        let map = run(&mut ws, &MapOptions { tokens: budget, ..MapOptions::default() });
        let exact = ctx_core::tokens::Tokenizer::count(&ctx_core::tokens::O200k, &map.text);
        assert!(exact <= budget, "{budget}: {exact} tokens:\n{}", map.text);
        // No heading over nothing.
        assert_eq!(map.text.contains("## Symbols"), !map.files.is_empty(), "{budget}:\n{}", map.text);
    }
    // Too small for even the title: an empty map, which the CLI says is empty.
    assert!(run(&mut ws, &MapOptions { tokens: 1, ..MapOptions::default() }).text.is_empty());
}

#[test]
fn the_map_is_the_same_for_any_number_of_threads() {
    let maps: Vec<String> = [1, 2, 3]
        .into_iter()
        .map(|threads| {
            let cache = tempfile::tempdir().unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut ws = open(this_repo(), cache.path());
                let options =
                    MapOptions { tokens: 2048, query: Some("token budget".into()), ..MapOptions::default() };
                run(&mut ws, &options).text
            })
        })
        .collect();
    assert_eq!(maps[0], maps[1]);
    assert_eq!(maps[1], maps[2]);
}

#[test]
fn files_with_the_same_content_are_parsed_once_and_all_shown() {
    let same = "def shared_helper():\n    pass\n";
    let dir =
        tree(&[("a/util.py", same), ("b/util.py", same), ("c.py", "from a.util import shared_helper\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let first = run(&mut ws, &MapOptions::default());
    assert_eq!((first.index.files, first.index.parsed), (3, 3));
    let second = run(&mut ws, &MapOptions::default());
    assert_eq!((second.index.parsed, second.index.cached), (0, 3), "{:?}", second.index);
    assert!(second.text.contains("a/util.py:") && second.text.contains("b/util.py:"), "{}", second.text);
}
