//! Which definition a reference goes to when several files define the name.

use ctxkeep_map::graph::{Focus, rank};
use ctxkeep_map::index::IndexedFile;
use ctxkeep_map::lang::Lang;
use ctxkeep_map::tags::extract;

fn files(sources: &[(&str, &str)]) -> Vec<IndexedFile> {
    let mut files: Vec<IndexedFile> = sources
        .iter()
        .map(|(path, text)| IndexedFile {
            path: path.to_string(),
            lang: "python".into(),
            size: text.len() as u64,
            hash: [0; 32],
            tags: extract(Lang::Python, text).unwrap(),
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The score of the definition of `name` in `path`.
fn score(files: &[IndexedFile], ranking: &ctxkeep_map::graph::Ranking, path: &str, name: &str) -> f64 {
    let f = files.iter().position(|f| f.path == path).unwrap();
    let d = files[f].tags.defs.iter().position(|d| d.name == name).unwrap();
    ranking.def_rank[f][d]
}

#[test]
fn the_code_s_uses_of_a_name_only_tests_define_are_mostly_not_theirs() {
    // pino's shape: `opts.level` throughout the code, and a test's
    // `formatters = {"level": …}` helper the only `level` defined.
    let code_uses = "def configure(opts):\n    return opts.level(1), opts.level(2), opts.level(3)\n";
    let files = files(&[
        ("pino/core.py", &format!("{code_uses}\ndef write(opts):\n    return configure(opts)\n")),
        ("pino/levels.py", code_uses),
        ("pino/proto.py", "from .core import write\n\ndef child(opts):\n    return write(opts)\n"),
        ("tests/test_format.py", "class Formatters:\n    def level(self, label):\n        return label\n"),
    ]);
    let ranking = rank(&files, &Focus::default());
    let test_level = score(&files, &ranking, "tests/test_format.py", "level");
    // Less than a function one file of the code calls.
    let write = score(&files, &ranking, "pino/core.py", "write");
    assert!(test_level < write, "the test's level {test_level} against write {write}");
}

#[test]
fn a_definition_in_tests_does_not_take_the_packages_references() {
    let files = files(&[
        ("src/shop/app.py", "class Shop:\n    def run(self):\n        pass\n"),
        ("src/shop/cli.py", "from .app import Shop\n\ndef main():\n    Shop().run()\n"),
        ("src/shop/server.py", "from .app import Shop\n\ndef serve(shop: Shop):\n    return Shop()\n"),
        (
            "tests/test_app.py",
            "import shop\n\nclass Shop(shop.Shop):\n    pass\n\ndef test_shop_runs():\n    Shop().run()\n",
        ),
        ("examples/demo/app.py", "class Shop:\n    pass\n\ndef demo():\n    return Shop()\n"),
    ]);
    let ranking = rank(&files, &Focus::default());
    let package = score(&files, &ranking, "src/shop/app.py", "Shop");
    for look_alike in ["tests/test_app.py", "examples/demo/app.py"] {
        let other = score(&files, &ranking, look_alike, "Shop");
        assert!(other * 10.0 < package, "{look_alike}: {other} against the package's {package}");
    }
}

#[test]
fn a_reference_prefers_the_definer_in_its_own_package() {
    let files = files(&[
        ("alpha/config.py", "class Settings:\n    pass\n"),
        ("alpha/main.py", "from .config import Settings\n\ndef start():\n    return Settings()\n"),
        (
            "alpha/worker.py",
            "from .config import Settings\n\ndef work(s: Settings):\n    return Settings()\n",
        ),
        ("beta/config.py", "class Settings:\n    pass\n"),
        ("beta/main.py", "from .config import Settings\n\ndef start():\n    return Settings()\n"),
    ]);
    let ranking = rank(&files, &Focus::default());
    // alpha has two users, beta one: each package's own definition gets its users' references.
    let alpha = score(&files, &ranking, "alpha/config.py", "Settings");
    let beta = score(&files, &ranking, "beta/config.py", "Settings");
    assert!(alpha > beta * 1.4, "alpha {alpha}, beta {beta}");
}
