"""Environment adapters: each builds the environments of one family by name.

An adapter is any object with a ``name`` and ``get_environment(name, **kwargs)``
(``list_environments()`` too, to be listed); register one with
``environment_registry.register_adapter(adapter)``. ``reasoning_gym``,
``native`` and ``huggingface`` are registered by default.
"""

from llenvs_go.adapters.huggingface import (
    DatasetUnavailableError,
    HuggingFaceAdapter,
    HuggingFaceEnvironment,
    HuggingFaceHidden,
)
from llenvs_go.adapters.iterative import IterativeEnvironment
from llenvs_go.adapters.native import NativeAdapter
from llenvs_go.adapters.reasoning_gym import (
    CorrectnessRewardFunction,
    ReasoningGymAdapter,
    ReasoningGymEnvironment,
    ReasoningGymHidden,
)
from llenvs_go.core import registry as _registry

# The model (llenvs_go.core) does not import its adapters: they register here.
_registry.install_defaults([ReasoningGymAdapter, NativeAdapter, HuggingFaceAdapter],
                           {"iterative": IterativeEnvironment})

__all__ = ["CorrectnessRewardFunction", "DatasetUnavailableError", "HuggingFaceAdapter", "HuggingFaceEnvironment",
           "HuggingFaceHidden", "ReasoningGymAdapter", "ReasoningGymEnvironment", "ReasoningGymHidden"]
