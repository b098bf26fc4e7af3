"""Shared fixtures. The package under test is the installed one (``pip install ./python``)."""

from __future__ import annotations

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    """The repository root (for the C header and scripts)."""
    return REPO


@pytest.fixture()
def leg_env():
    """leg_counting as in the seed page: size 1000, seed 42."""
    from llenvs_go.core.registry import environment_registry

    return environment_registry.get(name="leg_counting", adapter="reasoning_gym", size=1000, seed=42)


@pytest.fixture(scope="session")
def rg_leg():
    """The real reasoning-gym leg_counting dataset with the same parameters."""
    rg = pytest.importorskip("reasoning_gym")
    return rg.create_dataset("leg_counting", size=1000, seed=42)


@pytest.fixture(autouse=True)
def _forget_allowed_environments():
    """Environments a test allowed for references (``allow_environments``) do not leak into the next test."""
    yield
    from llenvs_go.integrations import _references

    _references._ALLOWED.clear()
    _references._LOADED_FILES.clear()
