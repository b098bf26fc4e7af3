"""The reward file to give veRL: ``compute_score`` for rows built by ``make_verl_dataset``.

Point veRL 0.9 at it (the top-level ``custom_reward_function.path`` of older
releases is still accepted by the config but no longer read)::

    reward.custom_reward_function.path=pkg://llenvs_go.integrations.verl_reward
    reward.custom_reward_function.name=compute_score

With the ``naive`` (default), ``dapo`` or ``limited`` reward manager, prefer
``name=compute_score_async``: those managers await an async function on their
event loop instead of handing every sample to a thread pool, a hop that costs
far more than scoring it. The ``remote`` manager accepts only
``compute_score``.

or, by file path, at this file
(``python -c "import llenvs_go.integrations.verl_reward as m; print(m.__file__)"``).

Each row's environment is rebuilt from ``extra_info["env_reference"]``, once
per process and per configuration, when the reference names a built-in
procedural task or an environment configured for the process
(``$LLENVS_GO_ENVIRONMENTS``, or
``+reward.custom_reward_function.reward_kwargs.environments=<file>``); a
reference to anything else (a hub dataset, a file, a loader option) is
refused with ``RefusedReferenceError``: rows are untrusted input. veRL executes a file path as an anonymous
module and Ray's remote reward manager then pickles its functions by value:
this file therefore only re-exports a function of an importable module
(pickled by reference, no module state travels with it), with an absolute
import.
"""

from llenvs_go.integrations.verl import compute_score, compute_score_async

__all__ = ["compute_score", "compute_score_async"]
