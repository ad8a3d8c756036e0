"""The release wheel as a file: its tags, what its native module needs from
the system (manylinux2014: glibc 2.17), that it is a stripped release build,
that it holds the locked crate versions, and that its metadata is the sdist's."""

from __future__ import annotations

import email.message
import email.parser
import json
import platform
import re
import tarfile
import zipfile
from pathlib import Path

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection
from packaging.tags import Tag
from packaging.utils import parse_wheel_filename

ROOT = Path(__file__).resolve().parents[3]
ARCH = platform.machine()

# The manylinux2014 (PEP 599) policy: the system libraries a wheel may link
# and the newest symbol version of each family it may need. Narrower than
# the policy's list: the libraries ctxkeep needs today.
ALLOWED_LIBS = {
    "libc.so.6",
    "libm.so.6",
    "libdl.so.2",
    "librt.so.1",
    "libpthread.so.0",
    "libgcc_s.so.1",
    "libutil.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
}
NEWEST = {"GLIBC": (2, 17), "GCC": (4, 8, 0), "GLIBCXX": (3, 4, 19), "CXXABI": (1, 3, 7)}


def native_module(wheel: Path, tmp_path: Path) -> Path:
    with zipfile.ZipFile(wheel) as zf:
        names = [n for n in zf.namelist() if n.startswith("ctxkeep/_ctx.") and n.endswith(".so")]
        assert names == ["ctxkeep/_ctx.abi3.so"], names
        return Path(zf.extract(names[0], tmp_path))


def needs(so: Path) -> tuple[set[str], dict[str, set[str]], list[str]]:
    """The libraries the module links, the symbol versions it needs, its sections."""
    with so.open("rb") as f:
        elf = ELFFile(f)
        libs: set[str] = set()
        versions: dict[str, set[str]] = {}
        for section in elf.iter_sections():
            if isinstance(section, DynamicSection):
                libs |= {tag.needed for tag in section.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}
            if isinstance(section, GNUVerNeedSection):
                for need, auxes in section.iter_versions():
                    versions.setdefault(need.name, set()).update(aux.name for aux in auxes)
        return libs, versions, [s.name for s in elf.iter_sections()]


def too_new(versions: dict[str, set[str]]) -> list[str]:
    bad = []
    for lib, names in versions.items():
        for name in names:
            match = re.fullmatch(r"([A-Z]+)_([0-9.]+)", name)
            if not match or match.group(1) not in NEWEST:
                bad.append(f"{lib}: {name} (not a manylinux2014 symbol family)")
                continue
            family, number = match.group(1), tuple(int(p) for p in match.group(2).split("."))
            if number > NEWEST[family]:
                bad.append(f"{lib}: {name}")
    return sorted(bad)


def test_the_policy_check_catches_a_newer_glibc() -> None:
    assert too_new({"libc.so.6": {"GLIBC_2.2.5", "GLIBC_2.17"}}) == []
    assert too_new({"libc.so.6": {"GLIBC_2.18", "GLIBC_2.34"}, "libgcc_s.so.1": {"GCC_7.0.0"}}) == [
        "libc.so.6: GLIBC_2.18",
        "libc.so.6: GLIBC_2.34",
        "libgcc_s.so.1: GCC_7.0.0",
    ]


def test_the_wheel_is_one_abi3_manylinux2014_wheel(wheel: Path) -> None:
    name, version, _, tags = parse_wheel_filename(wheel.name)
    assert name == "ctxkeep"
    assert tags == {Tag("cp39", "abi3", f"manylinux2014_{ARCH}"), Tag("cp39", "abi3", f"manylinux_2_17_{ARCH}")}
    with zipfile.ZipFile(wheel) as zf:
        wheel_file = zf.read(f"ctxkeep-{version}.dist-info/WHEEL").decode()
    assert sorted(re.findall(r"^Tag: (.+)$", wheel_file, re.M)) == sorted(str(t) for t in tags)
    assert "Root-Is-Purelib: false" in wheel_file


def test_the_native_module_needs_nothing_newer_than_glibc_2_17(wheel: Path, tmp_path: Path) -> None:
    libs, versions, _ = needs(native_module(wheel, tmp_path))
    assert "libc.so.6" in libs
    assert libs <= ALLOWED_LIBS, sorted(libs - ALLOWED_LIBS)
    assert too_new(versions) == []


def test_it_is_a_stripped_release_build(wheel: Path, tmp_path: Path) -> None:
    _, _, sections = needs(native_module(wheel, tmp_path))
    assert not [s for s in sections if s.startswith(".debug_") or s == ".symtab"], sections
    # A debug wheel is ~110 MB, an unstripped release one ~20 MB; this one ~7 MB.
    assert wheel.stat().st_size < 15_000_000, wheel.stat().st_size


def locked_crates() -> set[tuple[str, str]]:
    text = (ROOT / "Cargo.lock").read_text()
    return set(re.findall(r'^\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', text, re.M))


def test_the_wheel_holds_the_crate_versions_of_cargo_lock(wheel: Path) -> None:
    # The sdist is built without --locked (maturin's sdist keeps a lock file
    # that lists crates its trimmed workspace no longer has), so check here
    # that the build used exactly the locked versions: maturin records what it
    # linked in an SBOM inside the wheel.
    with zipfile.ZipFile(wheel) as zf:
        [sbom_name] = [n for n in zf.namelist() if "/sboms/" in n]
        sbom = json.loads(zf.read(sbom_name))
    linked = {(c["name"], c["version"]) for c in sbom["components"]}
    assert len(linked) > 100
    assert linked - locked_crates() == set()


def metadata_of(text: str) -> email.message.Message:
    return email.parser.Parser().parsestr(text)


def test_the_sdist_carries_the_wheels_metadata_and_what_a_build_needs(wheel: Path, sdist: Path) -> None:
    _, version, _, _ = parse_wheel_filename(wheel.name)
    assert sdist.name == f"ctxkeep-{version}.tar.gz"
    top = f"ctxkeep-{version}"
    with tarfile.open(sdist) as tar:
        names = set(tar.getnames())
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode()  # type: ignore[union-attr]
    for needed in ["pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "crates/ctx-py/src/lib.rs",
                   "crates/ctx-core/build.rs", "python/ctxkeep/__init__.py", "python/ctxkeep/py.typed"]:
        assert f"{top}/{needed}" in names, needed
    with zipfile.ZipFile(wheel) as zf:
        wheel_metadata = zf.read(f"ctxkeep-{version}.dist-info/METADATA").decode()
    ours, theirs = metadata_of(wheel_metadata), metadata_of(pkg_info)
    assert sorted(ours.items()) == sorted(theirs.items())
    assert ours.get_payload() == theirs.get_payload()
