#!/usr/bin/env python3
"""A file-ranking benchmark built from package releases.

Without git histories of other projects here, a package's consecutive
releases stand in for commits: for a pair (old, new) whose new release ships
a changelog section for itself, the task is that section's text and the
targets are the source files the release modified (present in both, content
differs beyond the version string). Everything comes from the registries
with their ordinary clients (pip download, npm pack, cargo fetch).

  fetch --out DATA_DIR [--packages P ...]
      Download releases, write DATA_DIR/trees/<pkg>-<old>/ and
      DATA_DIR/examples.jsonl (package, old, new, query, changed, ...).
  git --data DATA_DIR --cache CACHE_DIR --out GIT_DIR
      Make GIT_DIR/<pkg>/, a git repository with one commit per downloaded
      release in version order (message: its changelog section), so each
      example is a commit with the earlier releases as its history, and
      GIT_DIR/examples.jsonl for `benches/rank_eval.py --repo GIT_DIR
      --examples GIT_DIR/examples.jsonl`.

Standard library only. See docs/benchmarks.md for the figures.
"""
import argparse, difflib, glob, json, os, re, shutil, subprocess, sys, tarfile, time
from collections import Counter

SOURCE = (".rs", ".py", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".go", ".java", ".rb")
SKIP_DIRS = ("target", "node_modules")
WORD = re.compile(r"\w+")

# ---------------------------------------------------------------------------
# Packages. `min`: the oldest version considered; `changelog`: candidate paths
# in the package (first one with a section for the version wins); `prune`:
# folders of build output removed from every tree (npm bundles duplicate src/).
PACKAGES = {
    # Python (PyPI sdists)
    "click":    dict(eco="pypi", min="8.0.0", changelog=["CHANGES.rst", "CHANGES.md"]),
    "werkzeug": dict(eco="pypi", min="2.0.0", changelog=["CHANGES.rst", "CHANGES.md"]),
    "jinja2":   dict(eco="pypi", min="3.0.0", changelog=["CHANGES.rst", "CHANGES.md"]),
    "flask":    dict(eco="pypi", min="2.0.0", changelog=["CHANGES.rst", "CHANGES.md"]),
    "pytest":   dict(eco="pypi", min="7.0.0", changelog=["doc/en/changelog.rst"]),
    "requests": dict(eco="pypi", min="2.20.0", changelog=["HISTORY.md", "HISTORY.rst"]),
    "attrs":    dict(eco="pypi", min="21.1.0", changelog=["CHANGELOG.md", "CHANGELOG.rst"]),
    # Rust (crates.io through cargo fetch)
    "tokio":    dict(eco="crates", min="1.20.0", changelog=["CHANGELOG.md"]),
    "tokio-util": dict(eco="crates", min="0.7.0", changelog=["CHANGELOG.md"]),
    "axum":     dict(eco="crates", min="0.6.0", changelog=["CHANGELOG.md"]),
    "tracing-subscriber": dict(eco="crates", min="0.3.0", changelog=["CHANGELOG.md"]),
    "regex":    dict(eco="crates", min="1.5.0", changelog=["CHANGELOG.md"]),
    "mio":      dict(eco="crates", min="0.8.0", changelog=["CHANGELOG.md"]),
    # TypeScript / JavaScript (npm)
    "rxjs":     dict(eco="npm", min="7.0.0", changelog=["CHANGELOG.md"], prune=["dist", "bundles"]),
    "axios":    dict(eco="npm", min="1.0.0", changelog=["CHANGELOG.md"], prune=["dist"]),
    "knex":     dict(eco="npm", min="2.0.0", changelog=["CHANGELOG.md"]),
    "mobx":     dict(eco="npm", min="6.0.0", changelog=["CHANGELOG.md"], prune=["dist"]),
}
# jinja2's recent sdists (3.1.5+) ship no CHANGES file, so the newest release cannot pre-filter it.
DEFAULT_PACKAGES = [p for p in PACKAGES if p != "jinja2"]

MAX_BULLETS = 6
MAX_CHANGED = 25
MIN_QUERY_WORDS = 3


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------------------
# Versions

VERSION_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")


def vkey(v):
    m = VERSION_RE.match(v)
    return tuple(int(x or 0) for x in m.groups()) if m else None


def stable(versions, minimum):
    lo = vkey(minimum)
    out = {}
    for v in versions:
        k = vkey(v)
        if k is not None and k >= lo and k not in out:
            out[k] = v
    return [out[k] for k in sorted(out)]


def list_versions(pkg, cfg, cache):
    eco = cfg["eco"]
    if eco == "pypi":
        r = run([sys.executable, "-m", "pip", "index", "versions", pkg])
        m = re.search(r"Available versions:\s*(.*)", r.stdout)
        return [v.strip() for v in m.group(1).split(",")] if m else []
    if eco == "npm":
        r = run(["npm", "view", pkg, "versions", "--json"])
        return json.loads(r.stdout) if r.returncode == 0 else []
    if eco == "crates":
        # Resolve the crate once so cargo caches its sparse-index entry, then read it.
        proj = scratch_cargo_project(cache, pkg, "*")
        run(["cargo", "generate-lockfile"], cwd=proj, env=cargo_env(cache))
        versions = []
        prefix = {1: "1", 2: "2", 3: "3/" + pkg[0]}.get(len(pkg), pkg[:2] + "/" + pkg[2:4])
        for path in glob.glob(os.path.join(cache, "cargo-home", "registry", "index", "*", ".cache", prefix, pkg)):
            for chunk in open(path, "rb").read().split(b"\0"):
                if chunk.startswith(b"{"):
                    try:
                        d = json.loads(chunk)
                    except ValueError:
                        continue
                    if not d.get("yanked"):
                        versions.append(d["vers"])
        return versions
    raise ValueError(eco)


# ---------------------------------------------------------------------------
# Downloads: each returns the directory holding the package's contents.

def cargo_env(cache):
    return dict(os.environ, CARGO_HOME=os.path.join(cache, "cargo-home"))


def scratch_cargo_project(cache, pkg, req):
    proj = os.path.join(cache, "cargo-scratch")
    os.makedirs(os.path.join(proj, "src"), exist_ok=True)
    with open(os.path.join(proj, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "rankeval-scratch"\nversion = "0.0.0"\nedition = "2021"\n\n'
                f'[dependencies]\n{pkg} = "{req}"\n')
    with open(os.path.join(proj, "src", "main.rs"), "w") as f:
        f.write("fn main() {}\n")
    try:
        os.remove(os.path.join(proj, "Cargo.lock"))
    except FileNotFoundError:
        pass
    return proj


def extract_tar(archive, dest):
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with tarfile.open(archive) as t:
        try:
            t.extractall(tmp, filter="data")
        except TypeError:
            t.extractall(tmp)
    entries = os.listdir(tmp)
    inner = os.path.join(tmp, entries[0]) if len(entries) == 1 and os.path.isdir(os.path.join(tmp, entries[0])) else tmp
    shutil.rmtree(dest, ignore_errors=True)
    shutil.move(inner, dest)
    shutil.rmtree(tmp, ignore_errors=True)


def fetch_version(pkg, cfg, ver, cache):
    """The extracted contents of pkg==ver under cache/src/, or None."""
    dest = os.path.join(cache, "src", f"{pkg}-{ver}")
    if os.path.isdir(dest):
        return dest
    eco = cfg["eco"]
    dl = os.path.join(cache, "downloads", pkg, ver)
    os.makedirs(dl, exist_ok=True)
    if eco in ("pypi", "npm"):
        pattern, cmd = {
            "pypi": ("*.tar.gz", [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                                  "-q", f"{pkg}=={ver}", "-d", dl]),
            "npm": ("*.tgz", ["npm", "pack", "-q", f"{pkg}@{ver}"]),
        }[eco]
        archives = glob.glob(os.path.join(dl, pattern))
        if not archives:
            r = run(cmd, cwd=dl)
            archives = glob.glob(os.path.join(dl, pattern))
            if not archives:
                log(f"  {pkg} {ver}: {' '.join(cmd[:3])} failed: {r.stderr.strip()[-200:]}")
                return None
        extract_tar(archives[0], dest)
    elif eco == "crates":
        env = cargo_env(cache)
        srcs = glob.glob(os.path.join(env["CARGO_HOME"], "registry", "src", "*", f"{pkg}-{ver}"))
        if not srcs:
            proj = scratch_cargo_project(cache, pkg, "=" + ver)
            r = run(["cargo", "fetch", "-q"], cwd=proj, env=env)
            srcs = glob.glob(os.path.join(env["CARGO_HOME"], "registry", "src", "*", f"{pkg}-{ver}"))
            if not srcs:
                log(f"  {pkg} {ver}: cargo fetch failed: {r.stderr.strip()[-200:]}")
                return None
        shutil.copytree(srcs[0], dest + ".tmp", symlinks=True, dirs_exist_ok=True)
        shutil.move(dest + ".tmp", dest)
    for d in cfg.get("prune", []):
        shutil.rmtree(os.path.join(dest, d), ignore_errors=True)
    return dest


# ---------------------------------------------------------------------------
# Changelogs

MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
UNDERLINE = re.compile(r"^([=\-~^*+#\"'`:.])\1{2,}\s*$")
VERSION_TOKEN = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?)(?![\w]|[-.]\w)")
MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def _plain_heading(text):
    text = MD_LINK.sub(r"\1", text)
    return text.replace("[", "").replace("]", "").replace("*", "").strip()


def _heading_version(text):
    """The version a heading names: its first version-like token, if it starts the heading
    (after an optional word such as 'Version', 'v' or the package name)."""
    t = _plain_heading(text)
    m = VERSION_TOKEN.search(t)
    if not m or len(t[: m.start()].split()) > 2:
        return None
    return m.group(1)


def headings(lines):
    """[(line index where the heading starts, index after it, level, text)]."""
    out, levels = [], {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MD_HEADING.match(line)
        if m and not line.startswith("#!"):
            out.append((i, i + 1, len(m.group(1)), m.group(2)))
            i += 1
            continue
        # rst/setext: text + underline, optionally with an overline.
        if line.strip() and not UNDERLINE.match(line) and i + 1 < len(lines) and UNDERLINE.match(lines[i + 1]) \
                and len(lines[i + 1].strip()) >= min(len(line.strip()), 3) and not re.match(r"^\s*([-*+]|\d+\.)\s", line):
            over = i > 0 and UNDERLINE.match(lines[i - 1]) and lines[i - 1].strip()[0] == lines[i + 1].strip()[0]
            style = ("over" if over else "") + lines[i + 1].strip()[0]
            if style not in levels:
                levels[style] = 100 + len(levels)
            out.append((i - 1 if over else i, i + 2, levels[style], line.strip()))
            i += 2
            continue
        i += 1
    return out


def changelog_section(text, version):
    """The body of `version`'s section (without its heading), or None."""
    lines = text.splitlines()
    hs = headings(lines)
    want = vkey(version)
    for n, (start, body, level, title) in enumerate(hs):
        v = _heading_version(title)
        if v is None or vkey(v) != want:
            continue
        end = len(lines)
        for start2, _, level2, title2 in hs[n + 1:]:
            if level2 <= level or _heading_version(title2):
                end = start2
                break
        return "\n".join(lines[body:end])
    return None


BULLET = re.compile(r"^(\s*)([-*+•]|\d+[.)])\s+\S")


def count_bullets(section):
    indents = [len(m.group(1)) for m in map(BULLET.match, section.splitlines()) if m]
    if not indents:
        return 1 if section.strip() else 0
    top = min(indents)
    return sum(1 for i in indents if i <= top + 1)


DROP_LINE = [
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+"),                       # link reference definitions
    re.compile(r"^\s*\.\.\s+_[^:]+:\s*\S+"),                      # rst link targets
    re.compile(r"^\s*(Released|Release date|Date|Unreleased)\b.*$", re.I),
    re.compile(r"^\s*<!--.*-->\s*$"),
    re.compile(r"<img\b", re.I),
]
CONTRIB = re.compile(r"^\W*(contributors to this release|new contributors|full changelog|contributors)\W*$", re.I)


def clean_query(section):
    out = []
    skipping = False
    for line in section.splitlines():
        s = line.strip()
        if UNDERLINE.match(line):
            continue
        m = MD_HEADING.match(line)
        if m:
            s = m.group(2)
            skipping = bool(CONTRIB.match(s))
            if skipping:
                continue
            line = s
        elif skipping:
            continue
        if CONTRIB.match(s):
            skipping = True
            continue
        if any(p.search(line) for p in DROP_LINE):
            continue
        line = re.sub(r"`([^`<]*?)\s*<[^>]+>`__?", r"\1", line)           # rst links
        line = re.sub(r":(?:issue|pr|user|ghsa|cve|commit|bug)s?:`[^`]*`", "", line, flags=re.I)
        line = re.sub(r":[\w:.-]+:`~?([^`]*)`", r"\1", line)                # rst roles
        line = re.sub(r"\{(?:issue|pr|user|ghsa|cve|commit|bug)s?\}`[^`]*`", "", line, flags=re.I)
        line = re.sub(r"\{[\w:.-]+\}`~?([^`]*)`", r"\1", line)             # MyST roles
        line = MD_LINK.sub(r"\1", line)                                     # markdown links
        line = re.sub(r"\[\s*[\w/.-]*#\d+\s*\]", "", line)                  # [#123] reference links
        line = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", line)                 # [text][ref]
        line = re.sub(r"\[([^\]]+)\]", r"\1", line)                           # [text]
        line = re.sub(r"<https?://[^>]*>|https?://\S+", "", line)           # bare urls
        line = re.sub(r"<[^>]+>", "", line)                                 # html
        line = re.sub(r"\bThanks\s+@[\w-]+!?\s*-?\s*", "", line)            # changesets credits
        line = re.sub(r"(?<![\w-])@[\w-]+(?:/[\w-]+)?", "", line) if re.search(r"\bby\s+@|\bthanks\b", line, re.I) else line
        line = re.sub(r"`?\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b`?", "", line)  # commit hashes
        line = re.sub(r"(?<![\w#])[\w/.-]*#\d+\b", "", line)                   # issue numbers
        line = re.sub(r"\(\s*[0-9a-f]{7,40}\s*\)", "", line)                  # (commit)
        line = re.sub(r"\b(closes|related to)\b[\s,]*(and\b[\s,]*)?(?=[\s,]*$|\s*,)", "", line, flags=re.I)
        line = re.sub(r"\(\s*[,\s]*\)|\[\s*[,\s]*\]", "", line)                # emptied brackets
        line = re.sub(r"[\s,]+$", "", line)
        if line.strip() and not re.search(r"\w", line):                     # punctuation left over
            continue
        line = re.sub(r"^(\s*(?:[-*+]|\d+[.)])\s+)[:,;]\s*", r"\1", line)      # "- #123: text" leftovers
        line = re.sub(r"[ \t]+$", "", line)
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return text


def read_changelog(root, cfg, version):
    for rel in cfg["changelog"]:
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                sec = changelog_section(f.read(), version)
            if sec is not None:
                return rel, sec
    return None, None


# ---------------------------------------------------------------------------
# Trees

def source_files(root):
    """Relative paths of the files plain_bm25 ranks: source extensions, no dot-dirs, target, node_modules."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(SOURCE):
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return out


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def version_bump_only(a, b, old, new):
    """True when every changed line mentions the old or new version (a release bump)."""
    marks = set()
    for v in (old, new):
        marks.add(v)
        k = vkey(v)
        marks.add(", ".join(str(x) for x in k))
        marks.add(", ".join(str(x) for x in k[:2]))
    la = a.decode("utf-8", "replace").splitlines()
    lb = b.decode("utf-8", "replace").splitlines()
    for line in difflib.unified_diff(la, lb, lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        if line[1:].strip() and not any(m in line for m in marks):
            return False
    return True


# Generated files (setuptools_scm's _version.py and the like) change with every release.
GENERATED = re.compile(rb"file generated by|@generated|DO NOT EDIT")


def modified_sources(old_root, new_root, old, new):
    old_files = set(source_files(old_root))
    changed, bumps = [], []
    for rel in sorted(old_files & set(source_files(new_root))):
        a, b = _read(os.path.join(old_root, rel)), _read(os.path.join(new_root, rel))
        if a != b:
            trivial = GENERATED.search(a[:400]) or version_bump_only(a, b, old, new)
            (bumps if trivial else changed).append(rel)
    return changed, bumps


def pairs_for(versions):
    """(old, new) for each version: old is the greatest earlier version."""
    return [(versions[i - 1], versions[i]) for i in range(1, len(versions))]


def fetch(a):
    out = os.path.abspath(a.out)
    cache = os.path.abspath(a.cache or os.path.join(os.path.dirname(out), "cache"))
    os.makedirs(os.path.join(out, "trees"), exist_ok=True)
    os.makedirs(cache, exist_ok=True)
    examples_path = os.path.join(out, "examples.jsonl")
    keep = {}
    if os.path.exists(examples_path):
        for line in open(examples_path):
            e = json.loads(line)
            keep[(e["package"], e["old"], e["new"])] = e
    stats = {}
    for pkg in a.packages:
        cfg = PACKAGES[pkg]
        if any(k[0] == pkg for k in keep) and not a.refresh:
            log(f"{pkg}: already in {examples_path}, skipped (--refresh to rebuild)")
            continue
        for k in [k for k in keep if k[0] == pkg]:
            del keep[k]
        t0 = time.time()
        versions = stable(list_versions(pkg, cfg, cache), cfg["min"])
        if not versions:
            log(f"{pkg}: no versions")
            continue
        versions = versions[-a.max_versions:]
        log(f"{pkg}: {len(versions)} versions {versions[0]}..{versions[-1]}")
        # Pre-filter with the newest release's changelog (it holds every section),
        # so only pairs with a small section are downloaded.
        latest = fetch_version(pkg, cfg, versions[-1], cache)
        candidates = []
        for old, new in pairs_for(versions):
            if latest is None:
                candidates.append((old, new))
                continue
            _, sec = read_changelog(latest, cfg, new)
            if sec is None:
                continue
            nb = count_bullets(clean_query(sec))
            if 1 <= nb <= MAX_BULLETS + 2:
                candidates.append((old, new))
        log(f"{pkg}: {len(candidates)} candidate pairs")
        reasons = Counter()
        for old, new in candidates:
            new_root = fetch_version(pkg, cfg, new, cache)
            old_root = fetch_version(pkg, cfg, old, cache)
            if new_root is None or old_root is None:
                reasons["download failed"] += 1
                continue
            rel, sec = read_changelog(new_root, cfg, new)
            if sec is None:
                reasons["no changelog section in the new release"] += 1
                continue
            query = clean_query(sec)
            nb = count_bullets(query)
            if nb > MAX_BULLETS:
                reasons["too many bullets"] += 1
                continue
            if len(WORD.findall(query)) < MIN_QUERY_WORDS:
                reasons["empty query"] += 1
                continue
            changed, bumps = modified_sources(old_root, new_root, old, new)
            if not changed:
                reasons["no modified source file"] += 1
                continue
            if len(changed) > MAX_CHANGED:
                reasons["too many modified source files"] += 1
                continue
            tree = f"{pkg}-{old}"
            dest = os.path.join(out, "trees", tree)
            if not os.path.isdir(dest):
                shutil.copytree(old_root, dest, symlinks=True)
            ko, kn = vkey(old), vkey(new)
            kind = "patch" if ko[:2] == kn[:2] else ("minor" if ko[0] == kn[0] else "major")
            keep[(pkg, old, new)] = dict(
                package=pkg, ecosystem=cfg["eco"], old=old, new=new, kind=kind, tree=f"trees/{tree}",
                changelog=rel, bullets=nb, query=query, changed=changed, ignored_modified=bumps)
            reasons["kept"] += 1
        stats[pkg] = reasons
        log(f"{pkg}: {dict(reasons)} ({time.time() - t0:.0f}s)")
        write_examples(examples_path, keep)
    if a.clean_extracted:
        # The archives stay in the cache; the extracted copies (and cargo's) are rebuilt on demand.
        shutil.rmtree(os.path.join(cache, "src"), ignore_errors=True)
        for d in glob.glob(os.path.join(cache, "cargo-home", "registry", "src", "*")):
            shutil.rmtree(d, ignore_errors=True)
    # Trees no example refers to (from an earlier run) are removed.
    used = {e["tree"] for e in keep.values()}
    for d in os.listdir(os.path.join(out, "trees")):
        if f"trees/{d}" not in used:
            shutil.rmtree(os.path.join(out, "trees", d))
    write_examples(examples_path, keep)
    counts = Counter(e["package"] for e in keep.values())
    log("examples per package:", dict(sorted(counts.items())), "total", sum(counts.values()))


def write_examples(path, keep):
    order = sorted(keep.values(), key=lambda e: (e["ecosystem"], e["package"], vkey(e["new"])))
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for e in order:
            f.write(json.dumps(e) + "\n")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------
# Histories

def git_in(repo, *args, env=None):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True, env=env).stdout


def replace_tree(repo, src):
    for name in os.listdir(repo):
        if name != ".git":
            path = os.path.join(repo, name)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
    for name in os.listdir(src):
        s, d = os.path.join(src, name), os.path.join(repo, name)
        if os.path.isdir(s) and not os.path.islink(s):
            shutil.copytree(s, d, symlinks=True)
        else:
            shutil.copy2(s, d, follow_symlinks=False)


def histories(a):
    """One git repository per package, a commit per release (see the module docs)."""
    examples = [json.loads(line) for line in open(os.path.join(a.data, "examples.jsonl"))]
    wanted = {(e["package"], e["new"]): e for e in examples}
    os.makedirs(a.out, exist_ok=True)
    out_examples = []
    for pkg in sorted({e["package"] for e in examples}):
        cfg = PACKAGES[pkg]
        prefix = pkg + "-"
        versions = sorted((d[len(prefix):] for d in os.listdir(os.path.join(a.cache, "src"))
                           if d.startswith(prefix) and not d.endswith(".tmp")
                           and vkey(d[len(prefix):]) and d[len(prefix):][0].isdigit()),
                          key=vkey)
        latest = os.path.join(a.cache, "src", prefix + versions[-1])
        repo = os.path.join(a.out, pkg)
        shutil.rmtree(repo, ignore_errors=True)
        os.makedirs(repo)
        git_in(repo, "init", "--quiet")
        parent = None
        for i, ver in enumerate(versions):
            replace_tree(repo, os.path.join(a.cache, "src", prefix + ver))
            git_in(repo, "add", "-A")
            _, section = read_changelog(latest, cfg, ver)
            message = clean_query(section) if section else ""
            if len(message.split()) < 2:
                message = f"Release {ver}"
            stamp = f"{1600000000 + i * 86400} +0000"
            env = dict(os.environ, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
            git_in(repo, "-c", "user.name=release", "-c", "user.email=release@example.invalid",
                "commit", "--quiet", "--allow-empty", "-m", message, env=env)
            sha = git_in(repo, "rev-parse", "HEAD").strip()
            e = wanted.get((pkg, ver))
            if e and parent and e["old"] == versions[i - 1]:
                out_examples.append(dict(repo=pkg, sha=sha, parent=parent, message=e["query"], changed=e["changed"],
                                         package=pkg, ecosystem=e["ecosystem"]))
            parent = sha
        print(f"{pkg}: {len(versions)} releases", file=sys.stderr)
    with open(os.path.join(a.out, "examples.jsonl"), "w") as f:
        for e in out_examples:
            f.write(json.dumps(e) + "\n")
    print(f"{len(out_examples)} of {len(examples)} examples have their history", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="download releases and build the dataset")
    f.add_argument("--out", required=True)
    f.add_argument("--packages", nargs="+", default=DEFAULT_PACKAGES, choices=sorted(PACKAGES))
    f.add_argument("--cache", help="downloads, cargo home, extracted releases (default: <out>/../cache)")
    f.add_argument("--max-versions", type=int, default=80, help="newest stable versions per package")
    f.add_argument("--clean-extracted", action="store_true",
                   help="remove the extracted releases from the cache afterwards (the archives stay)")
    f.add_argument("--refresh", action="store_true", help="rebuild packages already in examples.jsonl")
    g = sub.add_parser("git", help="one git repository per package, a commit per release")
    g.add_argument("--data", required=True)
    g.add_argument("--cache", required=True, help="the cache `fetch` used (its extracted releases)")
    g.add_argument("--out", required=True)
    a = p.parse_args()
    if a.cmd == "fetch":
        fetch(a)
    else:
        histories(a)


if __name__ == "__main__":
    main()
