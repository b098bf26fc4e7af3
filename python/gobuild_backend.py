"""A dependency-free PEP 517/660 build backend for llenvs-go.

It runs ``go build -buildmode=c-shared`` on the repository's ``capi`` package
(with ``-tags`` from ``$LLENVS_GO_TAGS``, comma- or space-separated, e.g.
``stdjson`` or ``llenvs_testhooks``) and packs the shared library with the pure-Python package into a
``py3-none-<platform>`` wheel (the library does not link against libpython,
so one wheel serves every CPython). The editable variant builds the library
into the source tree and installs a ``.pth`` file pointing at it.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sysconfig
import tempfile
import zipfile

NAME = "llenvs_go"
DIST = "llenvs_go"
VERSION = "0.1.0"
LIB = "libllenvs.so"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _tag() -> str:
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def build_library(dest: str) -> str:
    """Build the shared library into ``dest`` and return its path."""
    if shutil.which("go") is None:
        raise RuntimeError("building llenvs-go needs the Go toolchain (go 1.26 or newer, as go.mod says) on PATH")
    out = os.path.join(os.path.abspath(dest), LIB)
    env = dict(os.environ, CGO_ENABLED="1")
    cmd = ["go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./capi"]
    tags = ",".join(os.environ.get("LLENVS_GO_TAGS", "").replace(",", " ").split())
    if tags:
        cmd[2:2] = ["-tags", tags]
    subprocess.run(cmd, cwd=REPO, env=env, check=True)
    header = os.path.splitext(out)[0] + ".h"
    if os.path.exists(header):
        os.remove(header)
    return out


def _metadata() -> str:
    return "\n".join(
        [
            "Metadata-Version: 2.1",
            "Name: llenvs-go",
            f"Version: {VERSION}",
            "Summary: Rewards, datasets and environment loops for LLM RL trainers, with a Go core",
            "Requires-Python: >=3.10",
            "Requires-Dist: cffi>=1.15",
            "Provides-Extra: hf",
            "Requires-Dist: datasets; extra == 'hf'",
            "Provides-Extra: yaml",
            "Requires-Dist: pyyaml; extra == 'yaml'",
            "Provides-Extra: reasoning-gym",
            "Requires-Dist: reasoning-gym==0.1.25; extra == 'reasoning-gym'",
            "",
        ]
    )


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: gobuild_backend\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    dist_info = f"{DIST}-{VERSION}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = _wheel_file().encode()
    record = [_record_line(name, data) for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{DIST}-{VERSION}-{_tag()}.whl"
    path = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in files.items():
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arcname.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return name


def _package_files() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    root = os.path.join(HERE, NAME)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for fn in filenames:
            if fn.endswith((".py", ".typed", ".h")):
                full = os.path.join(dirpath, fn)
                arc = os.path.relpath(full, HERE).replace(os.sep, "/")
                with open(full, "rb") as f:
                    files[arc] = f.read()
    return files


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = _package_files()
    with tempfile.TemporaryDirectory() as tmp:
        lib = build_library(tmp)
        with open(lib, "rb") as f:
            files[f"{NAME}/{LIB}"] = f.read()
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    build_library(os.path.join(HERE, NAME))
    return _write_wheel(wheel_directory, {f"__editable__.{DIST}.pth": (HERE + "\n").encode()})
