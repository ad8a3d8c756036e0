//! The repository map end to end, on fixture trees and on this repository.

use std::path::Path;

use ctxkeep_core::Workspace;
use ctxkeep_map::map::{MapOptions, RepoMap};

mod common;
use common::client::CLIENT;
use common::{open, run, shown, tree};

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
    // The stack and commands, not the tree every task's map would repeat.
    assert!(map.text.contains("Stack: ") && !map.text.contains("Tree:"), "{}", map.text);
    let overview = run(&mut ws, &MapOptions::default());
    assert!(overview.text.contains("Stack: ") && overview.text.contains("Tree:"), "{}", overview.text);
}

#[test]
fn a_focus_files_neighbours_rise() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let plain = run(&mut ws, &MapOptions { tokens: 4000, ..MapOptions::default() });
    let focused = run(
        &mut ws,
        &MapOptions { tokens: 4000, focus: vec!["shop/checkout.py".into()], ..MapOptions::default() },
    );
    let position = |map: &RepoMap, path: &str| map.files.iter().position(|f| f.path == path).unwrap();
    // checkout.py uses Cart (cart.py), which follows it; admin.py is no neighbour.
    assert_eq!(position(&focused, "shop/checkout.py"), 0, "{}", focused.text);
    assert_eq!(position(&focused, "shop/cart.py"), 1, "{}", focused.text);
    assert!(position(&focused, "shop/admin.py") > 1, "{}", focused.text);
    assert_eq!(plain.files[0].path, "shop/models.py", "without focus, the most referenced first");
    let err = ctxkeep_map::map::map(
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

#[test]
fn the_index_follows_the_tree_and_parses_only_contents_never_cached() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    ctxkeep_map::index::index(&mut ws, None).unwrap();
    // A content changed, one new, one gone, and a new file of a content the cache holds.
    let shop = dir.path().join("shop");
    std::fs::write(shop.join("cart.py"), "class Cart:\n    def clear(self):\n        pass\n").unwrap();
    std::fs::write(shop.join("coupons.py"), "def apply_coupon(code):\n    return code\n").unwrap();
    std::fs::remove_file(shop.join("admin.py")).unwrap();
    std::fs::copy(shop.join("models.py"), shop.join("models_copy.py")).unwrap();
    let (warm, stats) = ctxkeep_map::index::index(&mut ws, None).unwrap();
    assert_eq!((stats.parsed, stats.cached), (2, 6), "{stats:?}");
    let other_cache = tempfile::tempdir().unwrap();
    let (fresh, _) = ctxkeep_map::index::index(&mut open(dir.path(), other_cache.path()), None).unwrap();
    let seen = |files: &[ctxkeep_map::index::IndexedFile]| -> Vec<_> {
        files.iter().map(|f| (f.path.clone(), f.hash, f.tags.clone())).collect()
    };
    assert_eq!(seen(&warm), seen(&fresh));
    assert!(
        warm.iter().any(|f| f.path == "shop/coupons.py") && !warm.iter().any(|f| f.path == "shop/admin.py")
    );
    // A content the cache holds, though the last scan (`ctx scan`, which
    // parses nothing) saw another: an edit undone.
    let coupons = std::fs::read(shop.join("coupons.py")).unwrap();
    std::fs::write(shop.join("coupons.py"), "def apply_coupon(code, user):\n    return code\n").unwrap();
    ws.scan_files().unwrap();
    std::fs::write(shop.join("coupons.py"), coupons).unwrap();
    let (again, stats) = ctxkeep_map::index::index(&mut ws, None).unwrap();
    assert_eq!((stats.parsed, stats.cached), (0, 8), "{stats:?}");
    assert_eq!(seen(&again), seen(&fresh));
}

/// A map's JSON but for its index figures (how it was come by).
fn made(map: &RepoMap) -> serde_json::Value {
    let mut json = serde_json::to_value(map).unwrap();
    json.as_object_mut().unwrap().remove("index");
    json
}

#[test]
fn the_kept_overview_is_the_one_made_afresh_and_follows_the_tree() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let options = MapOptions { tokens: 8000, ..MapOptions::default() };
    let first = run(&mut ws, &options);
    // Read back: the same map, scores and all, as one made in a store that keeps none.
    let kept = run(&mut ws, &options);
    let fresh_cache = tempfile::tempdir().unwrap();
    let fresh = run(&mut open(dir.path(), fresh_cache.path()), &options);
    assert_eq!(made(&kept), made(&first));
    assert_eq!(made(&kept), made(&fresh));
    assert_eq!(
        (kept.index.parsed, kept.index.cached, kept.index.syntax_errors),
        (0, 7, 1),
        "{:?}",
        kept.index
    );
    // An edit shows at once, and so does a new command in the project's files.
    std::fs::write(dir.path().join("shop/admin.py"), "def render_sales_report():\n    return []\n").unwrap();
    let edited = run(&mut ws, &options);
    assert!(edited.text.contains("def render_sales_report():"), "{}", edited.text);
    assert!(!edited.text.contains("def render_dashboard():"), "{}", edited.text);
    std::fs::write(dir.path().join("Makefile"), "lint:\n\truff check .\n").unwrap();
    let with_lint = run(&mut ws, &options);
    assert!(with_lint.text.contains("make lint") && !edited.text.contains("make lint"), "{}", with_lint.text);
    assert_eq!(made(&run(&mut ws, &options)), made(&with_lint));
    // Another budget is another map.
    let small = run(&mut ws, &MapOptions { tokens: 120, ..MapOptions::default() });
    assert!(small.tokens <= 120 && small.text != with_lint.text, "{}", small.text);
}

/// This repository's own sources: a real corpus every checkout has.
fn this_repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().parent().unwrap()
}

#[test]
fn budgets_are_filled_to_within_five_percent_or_ten_below_512() {
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(this_repo(), cache.path());
    for budget in [256, 512, 1024, 2048, 4096, 8192] {
        let map = run(&mut ws, &MapOptions { tokens: budget, ..MapOptions::default() });
        let exact = ctxkeep_core::tokens::Tokenizer::count(&ctxkeep_core::tokens::O200k, &map.text);
        assert_eq!(map.tokens, exact);
        // A map of 256 tokens holds a handful of blocks of ten or twenty tokens each: what
        // no block fits is a larger share of it.
        let filled = if budget < 512 { 90 } else { 95 };
        assert!(exact <= budget && exact * 100 >= budget * filled, "{budget}: {exact} tokens");
    }
}

#[test]
fn a_small_budget_is_never_exceeded() {
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(this_repo(), cache.path());
    for budget in [1, 4, 16, 32, 64, 100, 150] {
        let map = run(&mut ws, &MapOptions { tokens: budget, ..MapOptions::default() });
        let exact = ctxkeep_core::tokens::Tokenizer::count(&ctxkeep_core::tokens::O200k, &map.text);
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

#[test]
fn a_focus_files_definitions_lead_the_map() {
    let dir = tree(CLIENT);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    for focus in ["src/reqlib/api.py", "src/reqlib/adapters.py"] {
        let map =
            run(&mut ws, &MapOptions { tokens: 400, focus: vec![focus.into()], ..MapOptions::default() });
        assert_eq!(map.files[0].path, focus, "{}", map.text);
        assert!(map.files.len() > 1, "its neighbours follow:\n{}", map.text);
    }
}

#[test]
fn a_definition_in_tests_does_not_take_the_packages_references() {
    let dir = tree(CLIENT);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    let score = |path: &str, name: &str| {
        map.files
            .iter()
            .filter(|f| f.path == path)
            .flat_map(|f| &f.definitions)
            .find(|d| d.name == name)
            .map_or(0.0, |d| d.score)
    };
    // `api.py` and `__init__.py` use `Session`: the package's, not the test's subclass.
    let package = score("src/reqlib/sessions.py", "Session");
    assert!(package > 0.0, "{}", map.text);
    assert!(score("tests/test_sessions.py", "Session") < package / 10.0, "{}", map.text);
    assert!(score("tests/test_utils.py", "requote_uri") < score("src/reqlib/utils.py", "requote_uri") / 10.0);
    // Test functions do not fill the default map.
    assert!(!map.text.contains("def test_"), "{}", map.text);
}

#[test]
fn a_map_leaves_out_test_functions_inner_functions_and_second_variants() {
    let lib = "#[cfg(unix)]\npub fn is_pager() -> bool { true }\n#[cfg(not(unix))]\npub fn is_pager() -> bool { false }\n\n\
               #[test]\nfn verify_app() {\n    assert!(is_pager());\n}\n\npub fn run() -> bool { is_pager() }\n";
    let serving = "def run_wsgi(app):\n    def write(data):\n        pass\n    def start_response(status):\n        \
                   return write\n    return app(start_response)\n";
    // starlette's tests define middleware classes inside test functions.
    let test = "from pkg.serving import run_wsgi\n\ndef test_stack():\n    class NoOpMiddleware:\n        \
                def __init__(self, app):\n            self.app = app\n    run_wsgi(NoOpMiddleware)\n\n\
                def test_other():\n    run_wsgi(2)\n";
    let dir = tree(&[
        ("src/lib.rs", lib),
        ("pkg/serving.py", serving),
        ("pkg/app.py", "from pkg.serving import run_wsgi\n__version__ = \"0.0.39\"\nrun_wsgi(1)\n"),
        ("tests/test_serving.py", test),
        // black's formatter cases: what the tests read, named like the task.
        ("tests/data/cases/run_wsgi_calls.py", "def run_wsgi():\n    a = b = (cccc)\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 4096, ..MapOptions::default() });
    let names = shown(&map);
    // A `#[cfg]` variant once, no `#[test]` function, no function's inner helpers.
    assert_eq!(names.iter().filter(|s| *s == "src/lib.rs: is_pager").count(), 1, "{}", map.text);
    assert!(
        names.contains(&"src/lib.rs: run".to_string())
            && names.contains(&"pkg/serving.py: run_wsgi".to_string())
    );
    let asides = [
        "src/lib.rs: verify_app",
        "pkg/serving.py: write",
        "pkg/serving.py: start_response",
        "pkg/app.py: __version__",
    ];
    for aside in asides {
        assert!(!names.contains(&aside.to_string()), "{aside}:\n{}", map.text);
    }
    // A test file says it holds tests; a task about them shows them, but not what
    // a test function defines, however deep.
    let query = Some("run_wsgi calls the app".into());
    let named = run(&mut ws, &MapOptions { tokens: 4096, query, ..MapOptions::default() });
    assert!(named.text.contains("tests/test_serving.py: (2 tests)\n"), "{}", named.text);
    // Test data may be what the task is about; what it "defines" is nothing of the project's.
    assert!(named.text.contains("tests/data/cases/run_wsgi_calls.py: (test data)\n"), "{}", named.text);
    assert!(!shown(&named).contains(&"tests/data/cases/run_wsgi_calls.py: run_wsgi".to_string()));
    let query = Some("serving tests".into());
    let tests = run(&mut ws, &MapOptions { tokens: 4096, query, ..MapOptions::default() });
    assert!(tests.text.contains("def test_stack():"), "{}", tests.text);
    assert!(!tests.text.contains("NoOpMiddleware") && !tests.text.contains("__init__"), "{}", tests.text);
    // Unless the task names them, as code: `write` in plain words is no name.
    let asked = run(
        &mut ws,
        &MapOptions { tokens: 4096, query: Some("verify_app fails".into()), ..MapOptions::default() },
    );
    assert!(shown(&asked).contains(&"src/lib.rs: verify_app".to_string()), "{}", asked.text);
    let query = "run_wsgi should write the status before the body";
    let asked =
        run(&mut ws, &MapOptions { tokens: 4096, query: Some(query.into()), ..MapOptions::default() });
    assert!(!shown(&asked).contains(&"pkg/serving.py: write".to_string()), "{}", asked.text);
}

#[test]
fn a_focus_file_s_code_comes_before_its_constants() {
    let constants: String = (0..30).map(|i| format!("STYLE_{i} = \"dim\"\n")).collect();
    let uses: String = (0..30).map(|i| format!("    print(STYLE_{i})\n")).collect();
    let rich = format!(
        "{constants}\ndef print_options_panel(options):\n{uses}\ndef get_parameter_help(param):\n{uses}\n"
    );
    let dir = tree(&[
        ("pkg/rich_utils.py", &rich),
        ("pkg/core.py", "from pkg.rich_utils import print_options_panel\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let options =
        MapOptions { tokens: 300, focus: vec!["pkg/rich_utils.py".into()], ..MapOptions::default() };
    let map = run(&mut ws, &options);
    let names = shown(&map);
    for function in ["print_options_panel", "get_parameter_help"] {
        assert!(names.contains(&format!("pkg/rich_utils.py: {function}")), "{function}:\n{}", map.text);
    }
}

#[test]
fn the_budget_holds_from_64_to_8192_tokens_for_every_map() {
    let client = tree(CLIENT);
    let shop = tree(SHOP);
    let repos: [(&Path, &[&str], &str); 3] = [
        (client.path(), &["src/reqlib/sessions.py"], "fix Session.resolve_redirects dropping the timeout"),
        (shop.path(), &["shop/checkout.py"], "test: the cart total in checkout"),
        (this_repo(), &["crates/ctx-map/src/map.rs"], "map budget fitting for a query"),
    ];
    for (root, focus, query) in repos {
        let cache = tempfile::tempdir().unwrap();
        let mut ws = open(root, cache.path());
        let focus: Vec<String> = focus.iter().map(|f| f.to_string()).collect();
        for budget in [64, 100, 128, 256, 512, 1024, 2048, 4096, 8192] {
            let options = [
                MapOptions { tokens: budget, ..MapOptions::default() },
                MapOptions { tokens: budget, query: Some(query.into()), ..MapOptions::default() },
                MapOptions { tokens: budget, focus: focus.clone(), ..MapOptions::default() },
            ];
            for options in options {
                let map = run(&mut ws, &options);
                let exact = ctxkeep_core::tokens::Tokenizer::count(&ctxkeep_core::tokens::O200k, &map.text);
                assert_eq!(map.tokens, exact);
                assert!(exact <= budget, "{}: {budget}: {exact} tokens:\n{}", root.display(), map.text);
            }
        }
    }
}

/// The ranking of a graph whose base came from the store.
fn cached_ranking(ws: &mut Workspace, query: &str) -> (Vec<f64>, Vec<Vec<f64>>) {
    let (files, _) = ctxkeep_map::index::index(ws, None).unwrap();
    let names = ctxkeep_map::graph::query_names(query);
    let focus = ctxkeep_map::graph::Focus { names: names.clone(), ..Default::default() };
    let cached = ctxkeep_map::graph::Graph::cached(ws, &files, &names).rank(&focus);
    let fresh = ctxkeep_map::graph::Graph::new(&files, &names).rank(&focus);
    assert_eq!((&cached.file_rank, &cached.def_rank), (&fresh.file_rank, &fresh.def_rank), "{query}");
    (cached.file_rank, cached.def_rank)
}

#[test]
fn the_stored_graph_ranks_as_a_fresh_one_and_follows_the_files() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    // The first call builds and stores the base, the second reads it back.
    let first = cached_ranking(&mut ws, "");
    assert_eq!(cached_ranking(&mut ws, ""), first);
    cached_ranking(&mut ws, "fix Cart total");
    // A new reference changes the graph (the same definitions: only the
    // digest tells the stored base is another one's).
    let admin = "from shop.cart import Cart\n\ndef render_dashboard():\n    return Cart().total()\n\n\
                 def describe_inventory():\n    return []\n";
    std::fs::write(dir.path().join("shop/admin.py"), admin).unwrap();
    let changed = cached_ranking(&mut ws, "");
    assert_ne!(changed, first);
}

/// The graph's digest of the files as they are now: (from the store if
/// their contents are those it was kept for, made afresh).
fn digests(ws: &mut Workspace) -> ([u8; 32], [u8; 32]) {
    let (files, _) = ctxkeep_map::index::index(ws, None).unwrap();
    (ctxkeep_map::graph::digest_cached(ws, &files), ctxkeep_map::graph::digest(&files))
}

#[test]
fn the_stored_digest_is_the_one_made_afresh_and_follows_the_contents() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let (kept, first) = digests(&mut ws);
    assert_eq!(kept, first);
    // Kept after the contents' own digest: what is kept is what is served for them.
    let stored = ws.derived_bytes("graph-digest", |bytes| bytes.to_vec()).unwrap().unwrap();
    assert_eq!(stored.len(), 64);
    assert_eq!(stored[32..], first);
    let planted = [&stored[..32], &[9; 32][..]].concat();
    ws.save_derived_bytes("graph-digest", &planted).unwrap();
    assert_eq!(digests(&mut ws), ([9; 32], first));
    // A comment: other contents, the same names, the same digest.
    let cart = dir.path().join("shop/cart.py");
    let body = std::fs::read_to_string(&cart)
        .unwrap()
        .replace("sum_prices(self.items)", "sum_prices(self.items)  # all of them");
    std::fs::write(&cart, body).unwrap();
    assert_eq!(digests(&mut ws), (first, first));
    // A new reference: another digest, served as made.
    let admin = "from shop.cart import Cart\n\ndef render_dashboard():\n    return Cart().total()\n";
    std::fs::write(dir.path().join("shop/admin.py"), admin).unwrap();
    let (kept, fresh) = digests(&mut ws);
    assert_eq!(kept, fresh);
    assert_ne!(fresh, first);
}

/// `ctx rank`'s ranking, the counts of the task's words read from the
/// store's postings, against the ranking on term tables made afresh from the
/// files: (path, score, lexical) of each.
fn ranked_from_the_store(ws: &mut Workspace, query: &str) -> Vec<(String, f64, f64)> {
    use ctxkeep_map::rank::{RankOptions, RankedFile, rank, rank_workspace};
    use ctxkeep_map::terms::FileTerms;
    let options = RankOptions { history: false, ..RankOptions::default() };
    let (stored, _) = rank_workspace(ws, query, options, None).unwrap();
    let (files, _) = ctxkeep_map::index::index(ws, None).unwrap();
    let tables: Vec<FileTerms> = files
        .iter()
        .map(|f| FileTerms::of(&std::fs::read_to_string(ws.root().join(&f.path)).unwrap(), f.defined_names()))
        .collect();
    let fresh = rank(&files, &tables, query, None, options);
    let key = |ranked: &[RankedFile]| -> Vec<(String, f64, f64)> {
        ranked.iter().map(|r| (r.path.clone(), r.score, r.lexical)).collect()
    };
    assert_eq!(key(&stored), key(&fresh), "{query}");
    key(&stored)
}

#[test]
fn rank_weighs_the_graph_only_when_asked_and_then_as_a_fresh_one() {
    use ctxkeep_map::rank::{RankOptions, rank, rank_workspace};
    use ctxkeep_map::terms::FileTerms;
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "the cart total is wrong";
    let plain = RankOptions { history: false, ..RankOptions::default() };
    let (without, _) = rank_workspace(&mut ws, query, plain, None).unwrap();
    assert!(without.iter().all(|r| r.graph == 0.0), "{without:?}");
    // Asked for, the stored graph's PageRank leads from the cart to what it uses.
    let graph = RankOptions { graph: true, ..plain };
    let (with, _) = rank_workspace(&mut ws, query, graph, None).unwrap();
    let of = |path: &str| with.iter().find(|r| r.path == path).unwrap();
    assert!(of("shop/models.py").graph > 0.0 && of("shop/cart.py").graph > 0.0, "{with:?}");
    // The same as a graph built afresh from the files.
    let (files, _) = ctxkeep_map::index::index(&mut ws, None).unwrap();
    let tables: Vec<FileTerms> = files
        .iter()
        .map(|f| FileTerms::of(&std::fs::read_to_string(ws.root().join(&f.path)).unwrap(), f.defined_names()))
        .collect();
    let fresh = rank(&files, &tables, query, None, graph);
    let key = |r: &ctxkeep_map::rank::RankedFile| (r.path.clone(), r.score, r.graph);
    assert_eq!(with.iter().map(key).collect::<Vec<_>>(), fresh.iter().map(key).collect::<Vec<_>>());
}

#[test]
fn the_stored_postings_rank_as_fresh_tables_and_follow_the_files() {
    let dir = tree(SHOP);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "parse the config, then render the dashboard of the warehouse stock";
    // The first call makes the postings, the second reads them back.
    let first = ranked_from_the_store(&mut ws, query);
    assert_eq!(ranked_from_the_store(&mut ws, query), first);
    assert!(first.iter().all(|r| r.0 != "shop/warehouse.py"));
    // One file at a time, each a new segment, until they are merged; a file
    // gone, and one back with an old content.
    let admin = dir.path().join("shop/admin.py");
    let old_admin = std::fs::read_to_string(&admin).unwrap();
    for round in 0..12 {
        let text = format!("def warehouse_stock_{round}():\n    return {round}\n").repeat(round + 1);
        std::fs::write(dir.path().join("shop/warehouse.py"), text).unwrap();
        if round % 3 == 0 {
            std::fs::write(&admin, format!("def render_dashboard():\n    return {round}\n")).unwrap();
        }
        let ranked = ranked_from_the_store(&mut ws, query);
        assert_eq!(ranked[0].0, "shop/warehouse.py", "{ranked:?}");
    }
    std::fs::remove_file(dir.path().join("shop/warehouse.py")).unwrap();
    std::fs::write(&admin, old_admin).unwrap();
    assert_eq!(ranked_from_the_store(&mut ws, query), first);
}

#[test]
fn a_minified_bundle_defines_nothing_and_holds_no_words_of_a_task() {
    use ctxkeep_map::rank::{RankOptions, rank_workspace};
    // mdBook keeps ace.js: a license line, then lines of thousands of characters.
    let bundle = format!(
        "/* ace.js | BSD License */\n{}\n",
        "function e(n){return n.indent.lines.strip(n)}var t=function(r){return e(r)};".repeat(300)
    );
    let mut files = SHOP.to_vec();
    files.push(("front/ace.js", &bundle));
    files
        .push(("shop/indent.py", "def strip_indent(lines):\n    return [line.lstrip() for line in lines]\n"));
    let dir = tree(&files);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(&mut ws, &MapOptions { tokens: 8192, ..MapOptions::default() });
    assert!(!map.text.contains("function e(n)"), "{}", map.text);
    assert!(map.files.iter().filter(|f| f.path == "front/ace.js").all(|f| f.definitions.is_empty()));
    let options = RankOptions { history: false, ..RankOptions::default() };
    let (ranked, _) = rank_workspace(&mut ws, "strip the indent of the lines", options, None).unwrap();
    assert_eq!(ranked[0].path, "shop/indent.py", "{ranked:?}");
    let bundle_rank = ranked.iter().find(|r| r.path == "front/ace.js");
    assert!(bundle_rank.is_none_or(|r| r.lexical == 0.0), "{bundle_rank:?}");
}

#[test]
fn a_task_map_shows_a_file_s_public_names_before_the_helpers_it_calls_most() {
    let calls: String = (0..8).map(|i| format!("@option(metavar=_metavar_from_type(int{i}))\n")).collect();
    let cli = format!(
        "def _metavar_from_type(t):\n    return str(t)\n\n{calls}def main(port, host):\n    serve(port, host)\n"
    );
    let dir = tree(&[("app/cli.py", &cli), ("app/serve.py", "def serve(port, host):\n    pass\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let options = MapOptions {
        tokens: 400,
        query: Some("add a healthcheck option".into()),
        focus: vec!["app/cli.py".into()],
    };
    let map = run(&mut ws, &options);
    let cli = map.files.iter().find(|f| f.path == "app/cli.py").unwrap();
    let best = cli.definitions.iter().max_by(|a, b| a.score.total_cmp(&b.score)).unwrap();
    assert_eq!(best.name, "main", "{}", map.text);
}

#[test]
fn an_interface_s_member_its_line_shows_is_not_shown_again() {
    let pool = "export interface Pool {\n  run<T>(fn: () => T): Promise<T>\n}\n\n\
                export const createPool = (size: number): Pool => {\n  return { run: (fn) => Promise.resolve(fn()) }\n}\n";
    let dir = tree(&[
        ("src/pool.ts", pool),
        ("src/app.ts", "import { createPool } from './pool'\ncreatePool(1).run(() => 1)\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map = run(
        &mut ws,
        &MapOptions { tokens: 600, query: Some("pool runs tasks".into()), ..MapOptions::default() },
    );
    assert!(map.text.contains("export interface Pool { run<T>(fn: () => T): Promise<T> }"), "{}", map.text);
    assert_eq!(map.text.matches("run<T>(fn: () => T)").count(), 1, "{}", map.text);
}

#[test]
fn a_trait_impl_s_associated_types_stay_out_of_a_task_s_map() {
    // serde_json's `ser.rs`: every `impl Serializer` repeats the trait's associated types.
    let ser = "pub struct Compound;\npub struct Ser;\nimpl serde::Serializer for Ser {\n    type SerializeMap = Compound;\n    \
               type SerializeSeq = Compound;\n    fn serialize_map(self) -> Compound { Compound }\n}\n";
    let dir = tree(&[("src/ser.rs", ser), ("src/lib.rs", "mod ser;\npub use ser::Ser;\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = Some("serialize a map with SerializeMap".into());
    let map = run(&mut ws, &MapOptions { tokens: 1000, query, ..MapOptions::default() });
    assert!(map.text.contains("fn serialize_map(self) -> Compound"), "{}", map.text);
    assert!(!map.text.contains("type SerializeSeq"), "{}", map.text);
    // Unless the task names one as code.
    assert!(map.text.contains("type SerializeMap = Compound"), "{}", map.text);
    // But one binding its name to a type of that name is never it (reqwest's `type Error =
    // crate::Error;` in every impl, for "add `Error::is_dns()`").
    let client = "pub struct Client;\nimpl Service for Client {\n    type Error = crate::Error;\n    \
                  type Response = http::Response<Body>;\n    fn call(&self) {}\n}\n";
    let error = "pub struct Error;\nimpl Error {\n    pub fn is_timeout(&self) -> bool { false }\n}\n";
    let dir = tree(&[
        ("src/client.rs", client),
        ("src/error.rs", error),
        ("src/lib.rs", "mod client;\nmod error;\n"),
    ]);
    let mut ws = open(dir.path(), cache.path());
    let query = Some("add `Error::is_dns()` to tell `Response` errors apart".into());
    let map = run(&mut ws, &MapOptions { tokens: 1000, query, ..MapOptions::default() });
    assert!(map.text.contains("pub struct Error"), "{}", map.text);
    assert!(!map.text.contains("type Error =") && !map.text.contains("type Response ="), "{}", map.text);
}
