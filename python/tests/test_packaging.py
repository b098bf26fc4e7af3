"""The build backend: metadata, wheel tags, the sdist's contents, and what it says when Go or a C compiler is missing.

The wheels themselves (manylinux tags, glibc 2.17, installs without Go on
CPython 3.10-3.13) are checked by ``make wheel-check`` (scripts/wheel_check.sh).
"""

from __future__ import annotations

import email.parser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

import llenvs_go


@pytest.fixture(scope="module")
def backend(repo):
    spec = importlib.util.spec_from_file_location("gobuild_backend", repo / "python" / "gobuild_backend.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _metadata(text: str):
    return email.parser.Parser().parsestr(text)


def test_one_version(backend, repo):
    assert backend.version() == llenvs_go.__version__
    pyproject = (repo / "python" / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert not re.search(r"^version\s*=", pyproject, re.M)
    assert not re.search(r"^VERSION\s*=", (repo / "python" / "gobuild_backend.py").read_text(), re.M)
    assert not re.search(r"__version__\s*=", (repo / "python" / "llenvs_go" / "__init__.py").read_text())


def test_metadata_is_complete(backend):
    meta = _metadata(backend.metadata())
    assert meta["Metadata-Version"] == "2.4"
    assert meta["Name"] == "llenvs-go" and meta["Version"] == llenvs_go.__version__
    assert meta["License-Expression"] == "Apache-2.0" and meta["License-File"] == "LICENSE"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Description-Content-Type"] == "text/markdown" and "pip install" in meta.get_payload()
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: Implementation :: CPython" in classifiers
    for v in ("3.10", "3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {v}" in classifiers
    extras = meta.get_all("Provides-Extra")
    assert {"hf", "yaml", "reasoning-gym", "cli", "verl", "trl", "frameworks", "all"} <= set(extras)
    requires = meta.get_all("Requires-Dist")
    assert "cffi>=1.15" in requires and "pyarrow>=14" in requires
    assert "click>=8.1; extra == 'cli'" in requires
    assert "reasoning-gym==0.1.25; extra == 'reasoning-gym'" in requires
    assert "datasets; extra == 'hf'" in requires
    assert backend._with_extra("tomli; python_version < '3.11'", "x") == \
        "tomli; (python_version < '3.11') and extra == 'x'"


def test_entry_points_and_typed_marker(backend, repo):
    assert backend._entry_points() == "[console_scripts]\nllenvs-go = llenvs_go.__main__:main\n"
    files = backend._package_files()
    assert "llenvs_go/py.typed" in files and "llenvs_go/cli.py" in files and "llenvs_go/bench.py" in files
    assert not any(name.endswith((".so", ".pyc")) for name in files)


def test_wheel_tag(backend, monkeypatch):
    # CPython 3.10+ through five stable-ABI functions: one wheel for every CPython from 3.10 on.
    monkeypatch.delenv("GOARCH", raising=False)
    host = backend.platform_tag()
    assert backend._tag() == f"cp310-abi3-{host}"
    if host.startswith("linux_"):
        monkeypatch.setenv("GOARCH", "arm64")
        assert backend._tag() == "cp310-abi3-linux_aarch64"
        monkeypatch.setenv("GOARCH", "amd64")
        assert backend._tag() == "cp310-abi3-linux_x86_64"
        monkeypatch.setenv("GOARCH", "mips")
        with pytest.raises(backend.BuildError, match="GOARCH=mips"):
            backend.platform_tag()


def test_prepare_metadata_needs_no_go(backend, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    name = backend.prepare_metadata_for_build_wheel(str(tmp_path))
    meta = _metadata((tmp_path / name / "METADATA").read_text())
    assert meta["Version"] == llenvs_go.__version__
    assert "llenvs-go = llenvs_go.__main__:main" in (tmp_path / name / "entry_points.txt").read_text()


def _fake_go(bindir, goversion: str, cc: str) -> None:
    bindir.mkdir(exist_ok=True)
    go = bindir / "go"
    go.write_text(f"#!/bin/sh\nprintf '%s\\n' '{goversion}' '{cc}' 'auto'\n")
    go.chmod(0o755)


def _build_error(backend, monkeypatch, path: str) -> str:
    monkeypatch.setenv("PATH", path)
    with pytest.raises(backend.BuildError) as info:
        backend.build_library(os.devnull)
    return str(info.value)


def test_says_what_is_missing(backend, repo, tmp_path, monkeypatch):
    need = re.search(r"^go\s+(\S+)", (repo / "go.mod").read_text(), re.M).group(1)
    message = _build_error(backend, monkeypatch, str(tmp_path / "empty"))
    assert f"needs Go {need} or newer on PATH, and go was not found" in message

    _fake_go(tmp_path / "old", "go1.20.3", "gcc")
    message = _build_error(backend, monkeypatch, str(tmp_path / "old"))
    assert f"needs Go {need} or newer (go.mod), found go1.20.3" in message

    _fake_go(tmp_path / "nocc", "go1.99.0", "no-such-cc -O2")
    message = _build_error(backend, monkeypatch, str(tmp_path / "nocc"))
    assert "needs a C compiler for cgo, and 'no-such-cc' (Go's CC) was not found" in message


def test_readme_states_the_go_version(repo):
    need = re.search(r"^go\s+(\S+)", (repo / "go.mod").read_text(), re.M).group(1)
    readme = " ".join((repo / "README.md").read_text().split())
    assert f"Go {need}+" in readme or f"Go {need} or newer" in readme
    assert f"Go {need} or newer" in " ".join((repo / "python" / "README.md").read_text().split())


needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="building the sdist needs Go")


@pytest.fixture(scope="module")
def sdist(backend, tmp_path_factory):
    out = tmp_path_factory.mktemp("sdist")
    return out / backend.build_sdist(str(out))


@needs_go
def test_sdist_contents(sdist, repo):
    base = f"llenvs_go-{llenvs_go.__version__}/"
    with tarfile.open(sdist) as tf:
        names = {n[len(base):] for n in tf.getnames()}
        meta = _metadata(tf.extractfile(base + "PKG-INFO").read().decode())
    assert meta["Version"] == llenvs_go.__version__ and meta["License-Expression"] == "Apache-2.0"
    assert "LICENSE" in names and "Apache License" in (repo / "LICENSE").read_text()
    assert {"pyproject.toml", "gobuild_backend.py", "README.md", "llenvs_go/py.typed", "llenvs_go/cli.py",
            "go/go.mod", "go/go.sum", "go/capi/llenvs.h", "go/capi/shim.c", "go/capi/main.go",
            "go/capi/testhooks.go", "go/capi/codec_std.go"} <= names
    # every package capi imports, no tests, nothing outside the Go module's needs
    go_dirs = {os.path.dirname(n)[3:] for n in names if n.startswith("go/") and n.endswith(".go")}
    assert {"capi", "core", "extract", "clean", "strictcfg", "pycompat", "masking", "bpe",
            "envs/reasoninggym", "envs/native"} <= go_dirs
    assert not any(n.endswith("_test.go") or "/testdata/" in n or "abitest" in n for n in names)
    assert not any(n.endswith(".so") for n in names)


@needs_go
def test_sdist_vendors_the_go_modules(sdist, repo):
    base = f"llenvs_go-{llenvs_go.__version__}/go/vendor/"
    with tarfile.open(sdist) as tf:
        names = [n[len(base):] for n in tf.getnames() if n.startswith(base)]
        listed = tf.extractfile(base + "modules.txt").read().decode()
    required = re.findall(r"^\s+(\S+) v\S+(?: // indirect)?$", (repo / "go.mod").read_text(), re.M)
    assert "github.com/bytedance/sonic" in required
    for module in required:
        assert f"# {module} " in listed, module
    assert any(n.startswith("github.com/bytedance/sonic/") and n.endswith(".go") for n in names)


@needs_go
def test_sdist_builds_a_wheel_offline(sdist, tmp_path):
    """Unpacked away from the checkout, the sdist's backend builds the library from the sdist's go/ with no
    network and no module cache: the proxy off, -mod=vendor, an empty GOMODCACHE (an air-gapped cluster)."""
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp_path, filter="data") if sys.version_info >= (3, 12) else tf.extractall(tmp_path)
    root = tmp_path / f"llenvs_go-{llenvs_go.__version__}"
    cache = tmp_path / "empty-modcache"
    cache.mkdir()
    env = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=vendor", GOMODCACHE=str(cache), GOTOOLCHAIN="local",
               GONOSUMDB="*", GOSUMDB="off")
    code = ("import sys, gobuild_backend as b; assert b.go_root() == sys.argv[1], b.go_root(); "
            "print(b.build_wheel(sys.argv[2]))")
    out = subprocess.run([sys.executable, "-c", code, str(root / "go"), str(tmp_path)], cwd=root, env=env,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert not any(cache.iterdir()), "the build fetched modules into the empty module cache"
    wheel = tmp_path / out.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        lib = zf.read("llenvs_go/libllenvs.so")
    assert lib[:4] == b"\x7fELF" and "llenvs_go/py.typed" in names
    assert f"llenvs_go-{llenvs_go.__version__}.dist-info/licenses/LICENSE" in names
    assert wheel.name.startswith(f"llenvs_go-{llenvs_go.__version__}-cp310-abi3-")
