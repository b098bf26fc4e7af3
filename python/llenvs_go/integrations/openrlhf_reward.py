"""The reward file to give OpenRLHF: ``reward_func`` for rows built by ``make_openrlhf_dataset``.

OpenRLHF 0.11 loads the file given to ``--reward.remote_url`` as a module and
calls ``reward_func([query], [prompt], [label])`` from a worker thread::

    --reward.remote_url $(python -c "import llenvs_go.integrations.openrlhf_reward as m; print(m.__file__)") \\
    --data.input_key input --data.label_key label --data.apply_chat_template

Each label names its task and environment; environments are rebuilt once per
process and per configuration. A sample that cannot be scored gets 0 and is
counted in ``extra_logs`` (OpenRLHF would otherwise swallow the exception and
fail later). The import is absolute: the file is executed by path.
"""

from llenvs_go.integrations.openrlhf import reward_func

__all__ = ["reward_func"]
