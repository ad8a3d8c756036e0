//! Outlines kept up to date across edits: what a build after an edit stores
//! is what a build from scratch of the same tree stores.

use std::path::Path;

use ctxkeep_core::{BuildOptions, Tier, Workspace};

const FILES: &[(&str, &str)] = &[
    (
        "shop/models.py",
        "class Product:\n    def __init__(self, price):\n        self.price = price\n\ndef sum_prices(items):\n    return sum(i.price for i in items)\n",
    ),
    (
        "shop/cart.py",
        "from shop.models import Product, sum_prices\n\nclass Cart:\n    def add(self, product: Product):\n        self.items.append(product)\n\n    def total(self):\n        return sum_prices(self.items)\n",
    ),
    (
        "shop/checkout.py",
        "from shop.cart import Cart\n\ndef checkout(cart: Cart):\n    return cart.total()\n",
    ),
    (
        "shop/admin.py",
        "def render_dashboard():\n    return describe_inventory()\n\ndef describe_inventory():\n    return []\n",
    ),
    // A facade: what it passes on is shown by how many files use each name.
    ("shop/__init__.py", "from .models import Product, sum_prices\nfrom shop.cart import Cart\n"),
    (
        "tests/test_cart.py",
        "from shop.cart import Cart\n\ndef test_total():\n    assert Cart().total() == 0\n",
    ),
];

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Scan and build as `ctx scan && ctx build` does.
fn build(ws: &mut Workspace) {
    ws.scan_files().unwrap();
    ctxkeep_map::outline::build(ws, &BuildOptions::default()).unwrap();
}

/// What the folder context files of `shop` show, every tier, as JSON
/// (less the time it was rendered).
fn shown(ws: &Workspace) -> Vec<serde_json::Value> {
    let shown = |tier| {
        let mut doc = serde_json::to_value(ws.context("shop", tier).unwrap().doc).unwrap();
        doc.as_object_mut().unwrap().remove("generated_at");
        doc
    };
    Tier::ALL.iter().map(|&tier| shown(tier)).collect()
}

/// A workspace built once from `files` (from scratch).
fn fresh(files: &[(&str, String)]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    let (mut ws, _) = Workspace::init(dir.path()).unwrap();
    build(&mut ws);
    (dir, ws)
}

#[test]
fn outlines_after_edits_are_those_of_a_build_from_scratch() {
    let mut files: Vec<(&str, String)> = FILES.iter().map(|(p, t)| (*p, t.to_string())).collect();
    let (dir, mut ws) = fresh(&files);
    let edits = [
        // Lines move and a body changes, the names stay: the ranking is the one stored.
        ("shop/cart.py", "# The cart.\n\n".to_string() + &FILES[1].1.replace("sum_prices(self.items)", "sum_prices(self.items) or 0")),
        // A new definition, used elsewhere: the graph and every rank change.
        ("shop/admin.py", FILES[3].1.to_string() + "\ndef audit(cart):\n    return sum_prices(cart.items)\n"),
        ("shop/checkout.py", "from shop.admin import audit\n\ndef checkout(cart):\n    audit(cart)\n    return cart.total()\n".to_string()),
        // The facade alone edited, its graph as it was: what it passes on is ordered
        // by the whole tree's uses, not only by the names the edited file defines.
        ("shop/__init__.py", "\"\"\"The shop.\"\"\"\n".to_string() + FILES[4].1),
        // Names as they were, lines not.
        ("shop/checkout.py", "from shop.admin import audit\n\n\ndef checkout(cart):\n    audit(cart)\n    return cart.total()\n".to_string()),
    ];
    for (path, text) in edits {
        let before = shown(&ws);
        write(dir.path(), path, &text);
        files.iter_mut().find(|(p, _)| *p == path).unwrap().1 = text;
        build(&mut ws);
        let (_fresh_dir, from_scratch) = fresh(&files);
        let after = shown(&ws);
        assert_eq!(after, shown(&from_scratch), "after editing {path}");
        assert_eq!(ws.outlines().unwrap(), from_scratch.outlines().unwrap(), "after editing {path}");
        assert_ne!(after, before, "editing {path} changed nothing shown");
    }
    // Each line's most used name first: `sum_prices` (the cart, the admin) before
    // `Product` (the cart); `Cart` (checkout, the test) ties with it.
    let facade = ws.outline("shop/__init__.py").unwrap().unwrap();
    let lines: Vec<&str> = facade.defs.iter().map(|d| d.signature.as_str()).collect();
    assert_eq!(lines, ["from .models import sum_prices, Product", "from shop.cart import Cart"]);
}
