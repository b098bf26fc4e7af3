"""llenvs-go: the llenvs RL-training API (rewards, datasets, token masks) on a Go core.

Import paths mirror llenvs: ``llenvs_go.core.registry.environment_registry``,
``llenvs_go.core.config.EnvironmentConfig`` and ``llenvs_go.integrations``
(``Scorer``, ``DatasetProvider``).
"""

from llenvs_go import adapters as _adapters  # noqa: F401  (registers the built-in adapters)
from llenvs_go._native import InternalError, TaskIndexError, UnknownNameError, max_threads, set_threads
from llenvs_go._version import __version__
from llenvs_go.serving import Server, serve

__all__ = ["InternalError", "Server", "TaskIndexError", "UnknownNameError", "__version__", "max_threads", "serve",
           "set_threads"]
