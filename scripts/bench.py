"""The side-by-side benchmark of llenvs-go (shipped in the package as ``llenvs_go.bench``).

    python scripts/bench.py [--tasks all] [--sizes 1024,16384] ...   # same as `llenvs-go bench ...`
"""

from llenvs_go.bench import main

if __name__ == "__main__":
    main()
