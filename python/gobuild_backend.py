"""A PEP 517/660 build backend for llenvs-go that builds the Go core.

``build_wheel`` runs ``go build -buildmode=c-shared`` on the Go module's
``capi`` package (with ``-tags`` from ``$LLENVS_GO_TAGS``, comma- or
space-separated, e.g. ``stdjson`` or ``llenvs_testhooks``) and packs the shared
library with the pure-Python package. The C compiler is Go's (``$CC``, e.g.
``zig cc -target x86_64-linux-gnu.2.17`` for a library that loads on old
glibc); ``$GOARCH`` cross-compiles, and the wheel is tagged for that
architecture. ``build_sdist`` packs the Python package with the Go sources the
library is built from (``go/`` in the sdist: go.mod, go.sum and the module's
packages that ``capi`` imports, without tests) and the Go modules they need,
vendored (``go/vendor``, made by ``go mod vendor``), so the sdist builds
wherever Go and a C compiler are present, with no network: a ``vendor``
directory next to ``go.mod`` makes the build use ``-mod=vendor``, and neither
the module proxy nor a module cache is needed. ``build_editable`` builds the
library into the source tree and installs a ``.pth`` file pointing at it.

Metadata comes from ``pyproject.toml``'s ``[project]`` table; the version from
``llenvs_go/_version.py``.

Wheel tag: ``cp310-abi3-<platform>``. The library is loaded with cffi in ABI
mode (no extension module) and never links libpython, but its C shim calls
five functions of CPython's stable ABI (``PyGILState_Ensure``/``Release``,
``PyUnicode_AsUTF8AndSize``, ``PyErr_Clear``, ``PyTuple_GetItem``, handed in
from ``ctypes.pythonapi``), so it needs CPython 3.10 or newer (the version
that put ``PyUnicode_AsUTF8AndSize`` in the stable ABI) and no particular one.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from typing import Any

NAME = "llenvs_go"
DIST = "llenvs_go"
LIB = "libllenvs.so"
PYTHON_TAG = "cp310-abi3"
HERE = os.path.dirname(os.path.abspath(__file__))
# Go sources: the sdist carries them in go/; a checkout has the module at the repository root.
SDIST_GO = "go"
_EPOCH = (2020, 1, 1, 0, 0, 0)
_GOARCH_MACHINE = {"amd64": "x86_64", "arm64": "aarch64", "386": "i686", "ppc64le": "ppc64le", "s390x": "s390x",
                   "riscv64": "riscv64"}


class BuildError(RuntimeError):
    """The library cannot be built here; the message says what is missing."""


# -- metadata ---------------------------------------------------------------

def version() -> str:
    """The package version, read from ``llenvs_go/_version.py``."""
    with open(os.path.join(HERE, NAME, "_version.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__\s*=\s*"([^"]+)"', f.read(), re.M)
    if m is None:
        raise BuildError(f"{NAME}/_version.py does not set __version__ = \"...\"")
    return m.group(1)


def _project() -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError as e:
            raise BuildError("building llenvs-go on Python < 3.11 needs tomli to read pyproject.toml: "
                             "pip install tomli (build isolation installs it by itself)") from e
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _with_extra(req: str, extra: str) -> str:
    if ";" in req:
        spec, marker = req.split(";", 1)
        return f"{spec.strip()}; ({marker.strip()}) and extra == '{extra}'"
    return f"{req}; extra == '{extra}'"


def _license() -> bytes | None:
    """The LICENSE text: next to this file in an sdist, at the repository root in a checkout."""
    for path in (os.path.join(HERE, "LICENSE"), os.path.join(os.path.dirname(HERE), "LICENSE")):
        if os.path.isfile(path):
            with open(path, "rb") as f:
                return f.read()
    return None


def metadata() -> str:
    """The core metadata (METADATA / PKG-INFO, version 2.4) from ``[project]``."""
    p = _project()
    lines = ["Metadata-Version: 2.4", f"Name: {p['name']}", f"Version: {version()}"]
    if p.get("description"):
        lines.append(f"Summary: {p['description']}")
    if p.get("keywords"):
        lines.append(f"Keywords: {','.join(p['keywords'])}")
    if isinstance(p.get("license"), str):
        lines.append(f"License-Expression: {p['license']}")
    if _license() is not None:
        lines.append("License-File: LICENSE")
    lines += [f"Classifier: {c}" for c in p.get("classifiers", [])]
    lines += [f"Project-URL: {k}, {v}" for k, v in p.get("urls", {}).items()]
    if p.get("requires-python"):
        lines.append(f"Requires-Python: {p['requires-python']}")
    lines += [f"Requires-Dist: {r}" for r in p.get("dependencies", [])]
    for extra, reqs in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {_with_extra(r, extra)}" for r in reqs]
    readme = p.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, readme), encoding="utf-8") as f:
            body = f.read()
        return "\n".join(lines) + "\n\n" + body
    return "\n".join(lines) + "\n"


def _entry_points() -> str:
    p = _project()
    groups = dict(p.get("entry-points", {}))
    if p.get("scripts"):
        groups["console_scripts"] = p["scripts"]
    if p.get("gui-scripts"):
        groups["gui_scripts"] = p["gui-scripts"]
    out = []
    for group, entries in groups.items():
        out.append(f"[{group}]")
        out += [f"{k} = {v}" for k, v in entries.items()]
        out.append("")
    return "\n".join(out)


# -- the Go build -------------------------------------------------------------

def go_root() -> str:
    """The Go module the library is built from: the sdist's go/, else the repository root."""
    for root in (os.path.join(HERE, SDIST_GO), os.path.dirname(HERE)):
        if os.path.isfile(os.path.join(root, "go.mod")) and os.path.isdir(os.path.join(root, "capi")):
            return root
    raise BuildError(f"the Go sources of llenvs-go are missing: expected go.mod and capi/ in {HERE}/{SDIST_GO} "
                     f"(an sdist) or in {os.path.dirname(HERE)} (a checkout)")


def _go_line(root: str) -> str:
    with open(os.path.join(root, "go.mod"), encoding="utf-8") as f:
        m = re.search(r"^go\s+(\S+)", f.read(), re.M)
    return m.group(1) if m else "1"


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def check_toolchain(root: str) -> None:
    """Raise BuildError naming what is missing to build the library (Go, its version, a C compiler)."""
    need = _go_line(root)
    advice = ("install Go from the official downloads or your package manager, or install a prebuilt "
              "llenvs-go wheel (manylinux_2_17, for Linux x86_64 and aarch64), which needs neither")
    go = shutil.which("go")
    if go is None:
        raise BuildError(f"building llenvs-go from source needs Go {need} or newer on PATH, and go was not found; "
                         + advice)
    try:
        out = subprocess.run([go, "env", "GOVERSION", "CC", "GOTOOLCHAIN"], cwd=root, capture_output=True,
                             text=True, check=True, env=dict(os.environ, CGO_ENABLED="1")).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        raise BuildError(f"`go env` failed with {go}: {detail.strip()}; building llenvs-go needs Go {need} or "
                         "newer; " + advice) from e
    have, cc, toolchain = (out + ["", "", ""])[:3]
    if _version_tuple(have) < _version_tuple(need):
        raise BuildError(f"building llenvs-go needs Go {need} or newer (go.mod), found {have} at {go} "
                         f"(GOTOOLCHAIN={toolchain or 'auto'}); " + advice)
    compiler = cc.split()[0] if cc.split() else "gcc"
    if shutil.which(compiler) is None:
        raise BuildError(f"building llenvs-go needs a C compiler for cgo, and {compiler!r} (Go's CC) was not found; "
                         "install gcc (apt install gcc, dnf install gcc) or set CC to one")


def _goarch() -> str | None:
    return os.environ.get("GOARCH") or None


def build_library(dest: str) -> str:
    """Build the shared library into ``dest`` and return its path."""
    if sys.implementation.name != "cpython":
        raise BuildError(f"llenvs-go runs on CPython only (its C shim calls the CPython C API), "
                         f"not on {sys.implementation.name}")
    root = go_root()
    check_toolchain(root)
    out = os.path.join(os.path.abspath(dest), LIB)
    env = dict(os.environ, CGO_ENABLED="1")
    cmd = ["go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./capi"]
    tags = ",".join(os.environ.get("LLENVS_GO_TAGS", "").replace(",", " ").split())
    if tags:
        cmd[2:2] = ["-tags", tags]
    if os.path.isdir(os.path.join(root, "vendor")):  # an sdist: its vendored modules, never the network
        cmd[2:2] = ["-mod=vendor"]
    res = subprocess.run(cmd, cwd=root, env=env)
    if res.returncode != 0:
        raise BuildError(f"`{' '.join(cmd)}` failed (exit status {res.returncode}) in {root}; its output is above")
    header = os.path.splitext(out)[0] + ".h"
    if os.path.exists(header):
        os.remove(header)
    return out


# -- wheels -------------------------------------------------------------------

def platform_tag() -> str:
    """The wheel's platform tag: this machine's, or ``linux_<machine>`` for ``$GOARCH``."""
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    goarch = _goarch()
    if goarch and plat.startswith("linux_"):
        machine = _GOARCH_MACHINE.get(goarch)
        if machine is None:
            raise BuildError(f"GOARCH={goarch} has no wheel platform known to this backend; "
                             f"known: {', '.join(sorted(_GOARCH_MACHINE))}")
        plat = f"linux_{machine}"
    return plat


def _tag() -> str:
    return f"{PYTHON_TAG}-{platform_tag()}"


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: gobuild_backend\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    dist_info = f"{DIST}-{version()}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = metadata().encode()
    files[f"{dist_info}/WHEEL"] = _wheel_file().encode()
    license_text = _license()
    if license_text is not None:
        files[f"{dist_info}/licenses/LICENSE"] = license_text
    entry_points = _entry_points()
    if entry_points:
        files[f"{dist_info}/entry_points.txt"] = entry_points.encode()
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{DIST}-{version()}-{_tag()}.whl"
    path = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in files.items():
            info = zipfile.ZipInfo(arcname, date_time=_EPOCH)
            info.external_attr = (0o755 if arcname.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return name


def _package_files() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    root = os.path.join(HERE, NAME)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith((".py", ".typed")):
                full = os.path.join(dirpath, fn)
                arc = os.path.relpath(full, HERE).replace(os.sep, "/")
                with open(full, "rb") as f:
                    files[arc] = f.read()
    return files


def get_requires_for_build_wheel(config_settings=None):
    """PEP 517: tomli on Python < 3.11 (to read pyproject.toml), nothing else."""
    return ["tomli>=1.1"] if sys.version_info < (3, 11) else []


def get_requires_for_build_editable(config_settings=None):
    """PEP 660: as for a wheel."""
    return get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    """PEP 517: as for a wheel."""
    return get_requires_for_build_wheel(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """PEP 517: the .dist-info directory without building Go (pip reads the dependencies from it)."""
    dist_info = f"{DIST}-{version()}.dist-info"
    d = os.path.join(metadata_directory, dist_info)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w", encoding="utf-8") as f:
        f.write(metadata())
    entry_points = _entry_points()
    if entry_points:
        with open(os.path.join(d, "entry_points.txt"), "w", encoding="utf-8") as f:
            f.write(entry_points)
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 517: build the library and pack it with the package."""
    files = _package_files()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            lib = build_library(tmp)
        except BuildError as e:
            _fail(e)
        with open(lib, "rb") as f:
            files[f"{NAME}/{LIB}"] = f.read()
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: build the library into the source tree; the wheel holds a .pth file pointing there."""
    try:
        build_library(os.path.join(HERE, NAME))
    except BuildError as e:
        _fail(e)
    return _write_wheel(wheel_directory, {f"__editable__.{DIST}.pth": (HERE + "\n").encode()})


def _fail(e: BuildError) -> None:
    # Printed as the last line before the frontend's traceback, where a user looks first.
    print(f"error: {e}", file=sys.stderr)
    raise e


# -- the sdist ----------------------------------------------------------------

def _go_package_dirs(root: str) -> list[str]:
    """Directories (relative to root) of the module's packages that capi needs, under every build tag it has."""
    dirs: set[str] = {"capi"}
    for tags in ("", "stdjson", "llenvs_testhooks"):
        cmd = ["go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}"]
        if tags:
            cmd += ["-tags", tags]
        res = subprocess.run(cmd + ["./capi"], cwd=root, capture_output=True, text=True)
        if res.returncode != 0:
            raise BuildError(f"`{' '.join(cmd)} ./capi` failed: {res.stderr.strip()}; building the sdist needs Go")
        dirs.update(os.path.relpath(d, root) for d in res.stdout.split())
    return sorted(dirs)


def _go_files(root: str) -> list[str]:
    """go.mod, go.sum and each needed package's files (no tests, no subdirectories)."""
    files = ["go.mod", "go.sum"]
    for d in _go_package_dirs(root):
        for fn in sorted(os.listdir(os.path.join(root, d))):
            full = os.path.join(root, d, fn)
            if os.path.isfile(full) and not fn.endswith("_test.go") and not fn.startswith("."):
                files.append(os.path.join(d, fn))
    return files


def _vendor_files(root: str, dest: str) -> list[tuple[str, str]]:
    """``(path in the sdist's go/, file)`` of the Go modules the library needs, vendored into ``dest``.

    A ``vendor`` directory already next to ``go.mod`` (an sdist built from an
    sdist) is shipped as it is; otherwise ``go mod vendor`` makes one in
    ``dest`` (it needs the modules, from the module cache or the proxy).
    """
    vendor = os.path.join(root, "vendor")
    if not os.path.isdir(vendor):
        vendor = os.path.join(dest, "vendor")
        cmd = ["go", "mod", "vendor", "-o", vendor]
        res = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        if res.returncode != 0:
            raise BuildError(f"`{' '.join(cmd)}` failed in {root}: {res.stderr.strip()}; the sdist carries the Go "
                             "modules it needs, so building it needs them once (from the module cache or the proxy)")
    out = []
    for dirpath, dirnames, filenames in os.walk(vendor):
        dirnames.sort()
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            out.append((os.path.join("vendor", os.path.relpath(full, vendor)), full))
    return out


def _python_files() -> list[str]:
    files = ["pyproject.toml", "gobuild_backend.py", "README.md"]
    files += sorted(_package_files())
    return files


def build_sdist(sdist_directory, config_settings=None):
    """PEP 517: the Python package, this backend and the Go sources with their modules vendored (in go/),
    with PKG-INFO."""
    if shutil.which("go") is None:
        _fail(BuildError("building the llenvs-go sdist needs Go on PATH (it lists the Go packages to ship)"))
    base = f"{DIST}-{version()}"
    root = go_root()
    entries: list[tuple[str, bytes]] = [("PKG-INFO", metadata().encode())]
    license_text = _license()
    if license_text is not None:
        entries.append(("LICENSE", license_text))
    for rel in _python_files():
        with open(os.path.join(HERE, rel), "rb") as f:
            entries.append((rel, f.read()))
    for rel in _go_files(root):
        with open(os.path.join(root, rel), "rb") as f:
            entries.append((f"{SDIST_GO}/{rel}".replace(os.sep, "/"), f.read()))
    with tempfile.TemporaryDirectory() as tmp:
        try:
            vendored = _vendor_files(root, tmp)
        except BuildError as e:
            _fail(e)
        for rel, full in vendored:
            with open(full, "rb") as f:
                entries.append((f"{SDIST_GO}/{rel}".replace(os.sep, "/"), f.read()))
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tf:
        for rel, data in entries:
            info = tarfile.TarInfo(f"{base}/{rel}")
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 1577836800  # 2020-01-01: reproducible archives
            tf.addfile(info, io.BytesIO(data))
    return name
