"""``python -m llenvs_go`` and the ``llenvs-go`` console script: the command-line tool of :mod:`llenvs_go.cli`."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command-line tool; without click, say how to get it and exit with status 1."""
    try:
        import click  # noqa: F401
    except ImportError:
        sys.stderr.write('the llenvs-go command needs click, which the cli extra installs: '
                         'pip install "llenvs-go[cli]" (or pip install click)\n')
        sys.exit(1)
    from llenvs_go.cli import cli

    cli(prog_name="llenvs-go")


if __name__ == "__main__":
    main()
